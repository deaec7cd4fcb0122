import {
  createFeedBodySchema,
  type Feed,
  type FeedKind,
  feedKinds,
  type Network,
  patchFeedBodySchema,
} from '@portal/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { Modal, ModalTitle } from '../../components/modal';
import { createFeed, updateFeed } from './catalogue.api';
import { useCatalogueMutation } from './catalogue.hooks';
import { type FieldErrors, numberOrUndefined, serverErrors, zodFieldErrors } from './form-errors';

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
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const save = useCatalogueMutation((body: Record<string, unknown>) =>
    feed ? updateFeed(feed.id, body) : createFeed(body as Parameters<typeof createFeed>[0]),
  );
  const set = (key: keyof typeof values) => (value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
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
    const parsed = feed ? patchFeedBodySchema.safeParse(patch) : createFeedBodySchema.safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setGeneral(undefined);
    save.mutate(feed ? patch : body, {
      onSuccess: onClose,
      onError: (error) => {
        const e = serverErrors(error, t('errors.saveFailed'));
        setErrors(e.fields);
        setGeneral(e.general);
      },
    });
  };

  const text = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={String(values[key])}
      onChange={(e) => set(key)(e.target.value)}
      error={errors[key]}
      data-testid={`feed-${key}`}
      {...extra}
    />
  );

  return (
    <Modal open onClose={onClose} large>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="feed-form">
        <ModalTitle>{feed ? t('feeds.editTitle', { mountpoint: feed.mountpoint }) : t('feeds.createTitle')}</ModalTitle>
        <p className="text-sm text-muted">{t('feeds.networkLine', { name: network.name })}</p>
        {general && <p className="rounded-lg bg-status-red/10 px-3 py-2 text-sm text-status-red">{general}</p>}
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
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending || (!feed && !values.stationId)} data-testid="feed-save">
            {save.isPending ? t('actions.saving') : t('actions.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
