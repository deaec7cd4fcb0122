import {
  type ApiKey,
  type ApiKeyScope,
  apiKeyScopes,
  type CreatedApiKey,
  createApiKeyBodySchema,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { CopyControl } from '../../components/CopyControl';
import { Checkbox, TextField } from '../../components/form';
import { apiError } from '../../lib/api';
import { createApiKey, fetchApiKeys, revokeApiKey } from './api-keys.api';
import { MachineSection } from './MachineSection';

/**
 * API keys (issue 37): on /settings a person's own, on the organisation page an organisation's (`orgId`, for its
 * owners and admins). The whole key is shown once, right after it is made; the list shows prefixes.
 */
export function ApiKeysSection({ orgId }: { orgId?: string }) {
  const { t } = useTranslation('machine');
  const queryKey = ['api-keys', orgId ?? 'me'];
  const query = useQuery({ queryKey, queryFn: () => fetchApiKeys(orgId) });
  const [created, setCreated] = useState<CreatedApiKey>();
  return (
    <MachineSection
      testId="api-keys"
      title={t('keys.title')}
      intro={orgId ? t('keys.introOrganization') : t('keys.intro')}
      shownOnce={created && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      form={<CreateKeyForm orgId={orgId} queryKey={queryKey} onCreated={setCreated} />}
      query={query}
    >
      {(keys) => <KeyList keys={keys} orgId={orgId} queryKey={queryKey} />}
    </MachineSection>
  );
}

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const { t } = useTranslation('machine');
  return (
    <div role="status" className="flex flex-col gap-2 rounded-xl border border-status-green/40 bg-raised p-4">
      <p className="text-sm font-medium text-ink">{t('keys.shownOnce', { name: created.name })}</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-panel px-2 py-1 text-xs" data-testid="new-api-key">
          {created.key}
        </code>
        <CopyControl value={created.key} label={t('keys.copy')} />
      </div>
      <div>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t('keys.stored')}
        </Button>
      </div>
    </div>
  );
}

function CreateKeyForm({
  orgId,
  queryKey,
  onCreated,
}: {
  orgId?: string;
  queryKey: string[];
  onCreated: (key: CreatedApiKey) => void;
}) {
  const { t } = useTranslation('machine');
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expires, setExpires] = useState('');
  const [error, setError] = useState<string>();
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createApiKey>[0]) => createApiKey(body, orgId),
    onSuccess: async (key) => {
      onCreated(key);
      setName('');
      setScopes([]);
      setExpires('');
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (e) => setError(apiError(e)?.message ?? t('keys.failed')),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    // The date field gives a day; the key works until that day ends in the user's time zone.
    const expiresAt = expires ? new Date(`${expires}T23:59:59`).toISOString() : undefined;
    const parsed = createApiKeyBodySchema.safeParse({ name, scopes, ...(expiresAt && { expiresAt }) });
    if (!parsed.success) {
      setError(name.trim() === '' ? t('keys.nameRequired') : t('keys.scopeRequired'));
      return;
    }
    create.mutate(parsed.data);
  };
  // i18next reads ':' in a key as its namespace separator: the texts are under `ntrip-accounts_read` and so on.
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} noValidate aria-label={t('keys.create')}>
      <TextField
        label={t('keys.name')}
        value={name}
        maxLength={80}
        data-testid="api-key-name"
        onChange={(e) => setName(e.target.value)}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-muted">{t('keys.scopes')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {apiKeyScopes.map((scope) => (
            <Checkbox
              key={scope}
              label={
                <>
                  <code className="text-xs">{scope}</code> — {t(`scopes.${scope.replace(':', '_')}`)}
                </>
              }
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
            />
          ))}
        </div>
      </fieldset>
      <TextField
        label={t('keys.expires')}
        type="date"
        value={expires}
        hint={t('keys.expiresHint')}
        onChange={(e) => setExpires(e.target.value)}
      />
      {error && (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {t('keys.create')}
        </Button>
      </div>
    </form>
  );
}

function KeyList({ keys, orgId, queryKey }: { keys: ApiKey[]; orgId?: string; queryKey: string[] }) {
  const { t, i18n } = useTranslation('machine');
  const queryClient = useQueryClient();
  // Revoking cannot be undone: the first click asks, the second revokes.
  const [asking, setAsking] = useState<string>();
  const revoke = useMutation({
    mutationFn: (id: string) => revokeApiKey(id, orgId),
    onSettled: () => {
      setAsking(undefined);
      return queryClient.invalidateQueries({ queryKey });
    },
  });
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : t('keys.never');
  if (keys.length === 0) return <p className="text-sm text-muted">{t('keys.none')}</p>;
  return (
    <ul className="flex flex-col divide-y divide-line" data-testid="api-key-list">
      {keys.map((key) => {
        const state = key.revokedAt
          ? t('keys.revoked')
          : key.expiresAt && Date.parse(key.expiresAt) < Date.now()
            ? t('keys.expired')
            : t('keys.active');
        return (
          <li key={key.id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid="api-key-row">
            <div className="flex min-w-0 flex-col gap-1 text-sm">
              <p className="font-medium text-ink">
                {key.name} <code className="text-xs text-muted">{key.prefix}…</code> · <span>{state}</span>
              </p>
              <p className="text-xs text-muted">{key.scopes.join(', ')}</p>
              <p className="text-xs text-subtle">
                {t('keys.lastUsed', {
                  when: when(key.lastUsedAt),
                  from: key.lastUsedIp ?? '—',
                })}
                {' · '}
                {key.expiresAt ? t('keys.expiresOn', { when: when(key.expiresAt) }) : t('keys.noExpiry')}
              </p>
            </div>
            {!key.revokedAt && (
              <Button
                variant="danger"
                size="sm"
                disabled={revoke.isPending}
                onClick={() => (asking === key.id ? revoke.mutate(key.id) : setAsking(key.id))}
              >
                {asking === key.id ? t('keys.revokeConfirm') : t('keys.revoke')}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
