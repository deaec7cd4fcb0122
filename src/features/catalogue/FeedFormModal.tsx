import {
  type CreateFeedBody,
  createFeedBodySchema,
  type Feed,
  type FeedKind,
  feedKinds,
  type Network,
  type PatchFeedBody,
  patchFeedBodySchema,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { CatalogueFormModal, useCatalogueForm } from './CatalogueFormModal';
import { createFeed, updateFeed } from './catalogue.api';
import { numberOrUndefined } from './form-errors';

/**
 * A push feed (the base station sends to our caster with a source password) or a pull feed (our caster fetches
 * from an upstream caster). Passwords are write-only: an edit leaves them unchanged unless a new one is typed.
 */
export function FeedFormModal({
  network,
  feed,
  stations,
  onClose,
}: {
  network: Network;
  feed?: Feed;
  /** Stations of the network without a feed, for a new one. */
  stations: Array<{ id: string; mountpoint: string }>;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const secret = (value: string) => (feed && value === '' ? undefined : value);
  const form = useCatalogueForm({
    initialValues: {
      kind: feed?.kind ?? ('push' as FeedKind),
      stationId: feed?.stationId ?? stations[0]?.id ?? '',
      enabled: feed?.enabled ?? true,
      ownerEmail: feed?.ownerEmail ?? '',
      sourcePassword: '',
      upstreamHost: feed?.upstream?.host ?? '',
      upstreamPort: String(feed?.upstream?.port ?? 2101),
      upstreamMountpoint: feed?.upstream?.mountpoint ?? '',
      upstreamUsername: feed?.upstream?.username ?? '',
      upstreamPassword: '',
      upstreamNtripVersion: String(feed?.upstream?.ntripVersion ?? 2),
    },
    schema: feed ? patchFeedBodySchema : createFeedBodySchema,
    toBody: (values) => {
      const { kind, stationId, enabled } = values;
      const ownerEmail = values.ownerEmail.trim();
      const body =
        kind === 'push'
          ? { kind, stationId, enabled, ownerEmail, sourcePassword: secret(values.sourcePassword) }
          : {
              kind,
              stationId,
              enabled,
              ownerEmail,
              upstreamHost: values.upstreamHost,
              upstreamPort: numberOrUndefined(values.upstreamPort),
              upstreamMountpoint: values.upstreamMountpoint,
              upstreamUsername: values.upstreamUsername,
              upstreamPassword: secret(values.upstreamPassword),
              upstreamNtripVersion: Number(values.upstreamNtripVersion),
            };
      // An edit cannot move a feed to another station or kind.
      const { kind: _kind, stationId: _stationId, ...patch } = body;
      return feed ? patch : body;
    },
    submit: (body) => (feed ? updateFeed(feed.id, body as PatchFeedBody) : createFeed(body as CreateFeedBody)),
    onSuccess: onClose,
  });
  const { values, set } = form;
  const kind = values.kind;

  const text = (
    key: 'ownerEmail' | 'sourcePassword' | `upstream${'Host' | 'Port' | 'Mountpoint' | 'Username' | 'Password'}`,
    label: string,
    extra: Record<string, unknown> = {},
  ) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={(e) => set(key)(e.target.value)}
      error={form.errors[key]}
      data-testid={`feed-${key}`}
      {...extra}
    />
  );

  return (
    <CatalogueFormModal
      name="feed"
      title={feed ? t('feeds.editTitle', { mountpoint: feed.mountpoint }) : t('feeds.createTitle')}
      intro={<p className="text-sm text-muted">{t('feeds.networkLine', { name: network.name })}</p>}
      form={form}
      canSave={Boolean(feed) || values.stationId !== ''}
      onClose={onClose}
    >
      <div className="grid gap-4 md:grid-cols-2">
        {!feed && (
          <SelectField
            label={t('fields.station')}
            value={values.stationId}
            onChange={(e) => set('stationId')(e.target.value)}
            options={stations.map((s) => ({ value: s.id, label: s.mountpoint }))}
          />
        )}
        <SelectField
          label={t('fields.kind')}
          value={kind}
          disabled={Boolean(feed)}
          onChange={(e) => set('kind')(e.target.value as FeedKind)}
          options={feedKinds.map((k) => ({ value: k, label: t(`feeds.kinds.${k}`) }))}
        />
      </div>
      <p className="text-xs text-subtle">{t(`feeds.kindHelp.${kind}`)}</p>
      {kind === 'push' ? (
        text('sourcePassword', t('fields.sourcePassword'), {
          icon: 'password',
          autoComplete: 'new-password',
          hint: feed ? t('feeds.keepPassword') : t('feeds.sourcePasswordHint'),
        })
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {text('upstreamHost', t('fields.upstreamHost'))}
          {text('upstreamPort', t('fields.upstreamPort'), { type: 'number', min: 1, max: 65535 })}
          {text('upstreamMountpoint', t('fields.upstreamMountpoint'))}
          {text('upstreamUsername', t('fields.upstreamUsername'), { autoComplete: 'off' })}
          {text('upstreamPassword', t('fields.upstreamPassword'), {
            icon: 'password',
            autoComplete: 'new-password',
            hint: feed?.upstream?.hasPassword ? t('feeds.keepPassword') : undefined,
          })}
          <SelectField
            label={t('fields.ntripVersion')}
            value={values.upstreamNtripVersion}
            onChange={(e) => set('upstreamNtripVersion')(e.target.value)}
            options={[
              { value: '2', label: 'NTRIP 2.0' },
              { value: '1', label: 'NTRIP 1.0' },
            ]}
          />
        </div>
      )}
      {text('ownerEmail', t('feeds.ownerEmail'), { type: 'email', autoComplete: 'off', hint: t('feeds.ownerHint') })}
      <ToggleSwitch label={t('feeds.enabled')} checked={values.enabled} onChange={set('enabled')} />
    </CatalogueFormModal>
  );
}
