import { createWebhookBodySchema, type Webhook, type WebhookEvent, webhookEvents } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CopyControl } from '../../components/CopyControl';
import { Checkbox, TextField } from '../../components/form';
import { apiError } from '../../lib/api';
import { MachineSection } from './MachineSection';
import {
  createWebhook,
  fetchDeliveries,
  fetchWebhooks,
  removeWebhook,
  resendDelivery,
  rollWebhookSecret,
  testWebhook,
} from './webhooks.api';

/**
 * Webhooks (issue 37): on /settings a person's own, on the organisation page an organisation's (`orgId`, for its
 * owners and admins): endpoints, their signing secret (shown when made or rolled), the delivery log.
 */
export function WebhooksSection({ orgId }: { orgId?: string }) {
  const { t } = useTranslation('machine');
  const queryKey = ['webhooks', orgId ?? 'me'];
  const query = useQuery({ queryKey, queryFn: () => fetchWebhooks(orgId) });
  const [secret, setSecret] = useState<string>();
  return (
    <MachineSection
      testId="webhooks"
      title={t('webhooks.title')}
      intro={orgId ? t('webhooks.introOrganization') : t('webhooks.intro')}
      shownOnce={
        secret && (
          <div role="status" className="flex items-center gap-2 rounded-xl border border-status-green/40 bg-raised p-3">
            <p className="text-sm text-ink">{t('webhooks.secretOnce')}</p>
            <code className="min-w-0 flex-1 break-all text-xs" data-testid="webhook-secret">
              {secret}
            </code>
            <CopyControl value={secret} />
          </div>
        )
      }
      form={<CreateWebhookForm orgId={orgId} queryKey={queryKey} onSecret={setSecret} />}
      query={query}
    >
      {(hooks) =>
        hooks.length === 0 ? (
          <p className="text-sm text-muted">{t('webhooks.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line">
            {hooks.map((hook) => (
              <WebhookRow key={hook.id} hook={hook} orgId={orgId} queryKey={queryKey} onSecret={setSecret} />
            ))}
          </ul>
        )
      }
    </MachineSection>
  );
}

interface Owned {
  orgId?: string;
  queryKey: string[];
}

function CreateWebhookForm({ orgId, queryKey, onSecret }: Owned & { onSecret: (secret: string) => void }) {
  const { t } = useTranslation('machine');
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [error, setError] = useState<string>();
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createWebhook>[0]) => createWebhook(body, orgId),
    onSuccess: async (hook) => {
      onSecret(hook.secret);
      setUrl('');
      setEvents([]);
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (e) => setError(apiError(e)?.message ?? t('webhooks.failed')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const parsed = createWebhookBodySchema.safeParse({ url, events });
    if (!parsed.success) {
      setError(events.length === 0 ? t('webhooks.eventRequired') : t('webhooks.urlInvalid'));
      return;
    }
    create.mutate(parsed.data);
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate aria-label={t('webhooks.add')}>
      <TextField
        label={t('webhooks.url')}
        type="url"
        value={url}
        data-testid="webhook-url"
        onChange={(e) => setUrl(e.target.value)}
      />
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-medium text-muted">{t('webhooks.events')}</legend>
        {webhookEvents.map((name) => (
          <Checkbox
            key={name}
            label={<code className="text-xs">{name}</code>}
            checked={events.includes(name)}
            onChange={(e) => setEvents((now) => (e.target.checked ? [...now, name] : now.filter((n) => n !== name)))}
          />
        ))}
      </fieldset>
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {t('webhooks.add')}
        </Button>
      </div>
    </form>
  );
}

function WebhookRow({
  hook,
  orgId,
  queryKey,
  onSecret,
}: Owned & { hook: Webhook; onSecret: (secret: string) => void }) {
  const { t, i18n } = useTranslation('machine');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const deliveries = useQuery({
    queryKey: [...queryKey, hook.id, 'deliveries'],
    queryFn: () => fetchDeliveries(hook.id, orgId),
    enabled: open,
    refetchInterval: open ? 3000 : false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const test = useMutation({ mutationFn: () => testWebhook(hook.id, orgId), onSuccess: refresh });
  const roll = useMutation({
    mutationFn: () => rollWebhookSecret(hook.id, orgId),
    onSuccess: (h) => onSecret(h.secret),
  });
  const remove = useMutation({ mutationFn: () => removeWebhook(hook.id, orgId), onSuccess: refresh });
  const resend = useMutation({ mutationFn: (id: string) => resendDelivery(hook.id, id, orgId), onSuccess: refresh });
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="webhook-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0 text-sm">
          <p className="break-all font-medium text-ink">{hook.url}</p>
          <p className="text-xs text-muted">{hook.events.join(', ')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => test.mutate()}>
            {t('webhooks.test')}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setOpen(!open)}>
            {t('webhooks.log')}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => roll.mutate()}>
            {t('webhooks.roll')}
          </Button>
          <Button variant="danger" size="sm" onClick={() => remove.mutate()}>
            {t('webhooks.remove')}
          </Button>
        </div>
      </div>
      {open && (
        <ul className="flex flex-col gap-1 text-xs" data-testid="webhook-deliveries">
          {(deliveries.data ?? []).map((d) => (
            <li key={d.id} className="flex flex-wrap items-center gap-2">
              <code>{d.event}</code>
              <span>{t(`webhooks.status.${d.status}`)}</span>
              <span>{new Date(d.createdAt).toLocaleString(i18n.language)}</span>
              <span>{t('webhooks.attempts', { count: d.attempts })}</span>
              {d.lastStatusCode !== null && <span>HTTP {d.lastStatusCode}</span>}
              {d.lastResponse && <span className="truncate text-subtle">{d.lastResponse}</span>}
              <Button variant="ghost" size="sm" onClick={() => resend.mutate(d.id)}>
                {t('webhooks.resend')}
              </Button>
            </li>
          ))}
          {deliveries.data?.length === 0 && <li className="text-muted">{t('webhooks.noDeliveries')}</li>}
        </ul>
      )}
    </li>
  );
}
