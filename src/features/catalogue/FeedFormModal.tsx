import {
  createFeedBodySchema,
  type Feed,
  type FeedKind,
  feedKinds,
  type Network,
  patchFeedBodySchema,
} from '@portal/contract';
import { useState } from 'react';
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
  const [kind, setKind] = useState<FeedKind>(feed?.kind ?? 'push');
  const [values, setValues] = useState({
    stationId: feed?.stationId ?? stations[0]?.id ?? '',
    enabled: feed?.enabled ?? true,
    sourcePassword: '',
    upstreamHost: feed?.upstream?.host ?? '',
    upstreamPort: String(feed?.upstream?.port ?? 2101),
    upstreamMountpoint: feed?.upstream?.mountpoint ?? '',
    upstreamUsername: feed?.upstream?.username ?? '',
    upstreamPassword: '',
    upstreamNtripVersion: String(feed?.upstream?.ntripVersion ?? 2),
  });
  const form = useCatalogueForm((body) =>
    feed ? updateFeed(feed.id, body) : createFeed(body as Parameters<typeof createFeed>[0]),
  );
  const set = (key: keyof typeof values) => (value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));

  const submit = () => {
    const secret = (value: string) => (feed && value === '' ? undefined : value);
    const body =
      kind === 'push'
        ? { kind, stationId: values.stationId, enabled: values.enabled, sourcePassword: secret(values.sourcePassword) }
        : {
            kind,
            stationId: values.stationId,
            enabled: values.enabled,
            upstreamHost: values.upstreamHost,
            upstreamPort: numberOrUndefined(values.upstreamPort),
            upstreamMountpoint: values.upstreamMountpoint,
            upstreamUsername: values.upstreamUsername,
            upstreamPassword: secret(values.upstreamPassword),
            upstreamNtripVersion: Number(values.upstreamNtripVersion),
          };
    const { kind: _kind, stationId: _stationId, ...patch } = body;
    if (feed) form.submit(patchFeedBodySchema, patch, onClose);
    else form.submit(createFeedBodySchema, body, onClose);
  };

  const text = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={String(values[key])}
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
      onSubmit={submit}
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
          onChange={(e) => setKind(e.target.value as FeedKind)}
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
      <ToggleSwitch label={t('feeds.enabled')} checked={values.enabled} onChange={set('enabled')} />
    </CatalogueFormModal>
  );
}
