import {
  type AdminPortalSettings,
  type PortalSettingKey,
  type PortalSettings,
  type PortalSettingsPatch,
  portalSettingsSchema,
  SIGN_UP_MODES,
  type SignUpMode,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { Page } from '../../components/Page';
import { useFormat } from '../../lib/format';
import { useZodForm } from '../../lib/forms/useZodForm';
import { usePortalSettings, useSavePortalSettings } from './admin-settings.hooks';

type NumberKey = Exclude<PortalSettingKey, 'inviteLifetimeDays' | 'signUp'>;
/** The form keeps what is typed; it becomes numbers only when saved. */
type Draft = Record<NumberKey, string> & { inviteLifetimeDays: string; invitesExpire: boolean; signUp: SignUpMode };

const NUMBER_KEYS: NumberKey[] = [
  'organizationsPerUser',
  'ntripAccountsPerUser',
  'defaultConnectionsPerAccount',
  'accessGraceHours',
];

function draftOf(values: PortalSettings): Draft {
  return {
    signUp: values.signUp,
    organizationsPerUser: String(values.organizationsPerUser),
    ntripAccountsPerUser: String(values.ntripAccountsPerUser),
    defaultConnectionsPerAccount: String(values.defaultConnectionsPerAccount),
    accessGraceHours: String(values.accessGraceHours),
    invitesExpire: values.inviteLifetimeDays !== null,
    inviteLifetimeDays: String(values.inviteLifetimeDays ?? 30),
  };
}

const toNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The settings the draft stands for, numbers parsed; the contract checks them as a whole. */
const settingsOf = (draft: Draft): PortalSettings => ({
  signUp: draft.signUp,
  organizationsPerUser: toNumber(draft.organizationsPerUser),
  ntripAccountsPerUser: toNumber(draft.ntripAccountsPerUser),
  defaultConnectionsPerAccount: toNumber(draft.defaultConnectionsPerAccount),
  accessGraceHours: toNumber(draft.accessGraceHours),
  inviteLifetimeDays: draft.invitesExpire ? toNumber(draft.inviteLifetimeDays) : null,
});

/** Only the keys whose value differs from what is in force are sent. */
const changesOf = (next: PortalSettings, values: PortalSettings): PortalSettingsPatch =>
  Object.fromEntries(Object.entries(next).filter(([key, value]) => values[key as PortalSettingKey] !== value));

const CHECKED_KEYS: PortalSettingKey[] = [...NUMBER_KEYS, 'inviteLifetimeDays'];

function LastChange({ settings, settingKey }: { settings: AdminPortalSettings; settingKey: PortalSettingKey }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const change = settings.changes.find((c) => c.key === settingKey);
  if (!change) return <>{t('accountManagement.default')}</>;
  return (
    <>
      {t('accountManagement.changed', {
        when: format.dateTime(change.updatedAt),
        who: change.updatedBy ?? t('accountManagement.someone'),
      })}
    </>
  );
}

/** /admin/settings/account-management: the portal-wide limits, each enforced by the server from the next request. */
export function AccountManagementPage() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation();
  const settings = usePortalSettings();
  return (
    <Page
      name="admin-settings-account-management"
      title={tc('navigation.adminSettings.account-management')}
      subtitle={t('accountManagement.description')}
    >
      {settings.isError && <p className="text-sm text-status-red">{t('loadFailed')}</p>}
      {settings.data && <AccountManagementForm settings={settings.data} />}
    </Page>
  );
}

function AccountManagementForm({ settings }: { settings: AdminPortalSettings }) {
  const { t } = useTranslation('admin');
  const save = useSavePortalSettings();
  // Each setting says what it accepts in one sentence, whatever the reason a value is refused (here or by the server).
  const invalidTexts = Object.fromEntries(
    CHECKED_KEYS.map((key) => [key, t(`accountManagement.fields.${key}.invalid`)]),
  );
  const form = useZodForm({
    initialValues: draftOf(settings.values),
    schema: portalSettingsSchema,
    toBody: settingsOf,
    submit: (next) => save.mutateAsync(changesOf(next, settings.values)),
    onSuccess: (data) => form.reset(draftOf(data.values)),
    failedText: t('saveFailed'),
  });
  const draft = form.values;
  const setDraft = (next: Draft) => form.setValues(() => next);
  const errorOf = (key: PortalSettingKey) => (form.errors[key] ? invalidTexts[key] : undefined);

  return (
    <form
      onSubmit={form.handleSubmit}
      data-testid="account-management-form"
      className="flex flex-col gap-6 rounded-2xl border border-line bg-panel p-5 sm:p-6"
      noValidate
    >
      <div className="grid gap-2 border-b border-line pb-5 md:grid-cols-[1fr_220px] md:gap-6">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-ink">{t('accountManagement.fields.signUp.title')}</p>
          <p className="mt-1 text-sm text-muted">{t('accountManagement.fields.signUp.help')}</p>
          <p className="mt-1 text-xs text-subtle">
            <LastChange settings={settings} settingKey="signUp" />
          </p>
        </div>
        <SelectField
          label={t('accountManagement.fields.signUp.label')}
          name="signUp"
          value={draft.signUp}
          onChange={(e) => setDraft({ ...draft, signUp: e.target.value as SignUpMode })}
          options={SIGN_UP_MODES.map((mode) => ({
            value: mode,
            label: t(`accountManagement.fields.signUp.modes.${mode}`),
          }))}
        />
      </div>
      {NUMBER_KEYS.map((key) => (
        <div key={key} className="grid gap-2 border-b border-line pb-5 md:grid-cols-[1fr_220px] md:gap-6">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-ink">{t(`accountManagement.fields.${key}.title`)}</p>
            <p className="mt-1 text-sm text-muted">{t(`accountManagement.fields.${key}.help`)}</p>
            <p className="mt-1 text-xs text-subtle">
              <LastChange settings={settings} settingKey={key} />
            </p>
          </div>
          <TextField
            label={t(`accountManagement.fields.${key}.label`)}
            name={key}
            inputMode="numeric"
            value={draft[key]}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value.replace(/[^\d]/g, '') })}
            error={errorOf(key)}
          />
        </div>
      ))}
      <div className="grid gap-2 md:grid-cols-[1fr_220px] md:gap-6">
        <div className="min-w-0">
          <p className="text-sm font-semibold text-ink">{t('accountManagement.fields.inviteLifetimeDays.title')}</p>
          <p className="mt-1 text-sm text-muted">{t('accountManagement.fields.inviteLifetimeDays.help')}</p>
          <p className="mt-1 text-xs text-subtle">
            <LastChange settings={settings} settingKey="inviteLifetimeDays" />
          </p>
        </div>
        <div className="flex flex-col gap-3">
          <ToggleSwitch
            label={t('accountManagement.fields.inviteLifetimeDays.expire')}
            checked={draft.invitesExpire}
            onChange={(invitesExpire) => setDraft({ ...draft, invitesExpire })}
          />
          {draft.invitesExpire && (
            <TextField
              label={t('accountManagement.fields.inviteLifetimeDays.label')}
              name="inviteLifetimeDays"
              inputMode="numeric"
              value={draft.inviteLifetimeDays}
              onChange={(e) => setDraft({ ...draft, inviteLifetimeDays: e.target.value.replace(/[^\d]/g, '') })}
              error={errorOf('inviteLifetimeDays')}
            />
          )}
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {save.isSuccess && !save.isPending && (
          <p role="status" className="text-sm text-status-green">
            {t('accountManagement.saved')}
          </p>
        )}
        {form.general && (
          <p role="alert" className="text-sm text-status-red">
            {form.general}
          </p>
        )}
        <Button
          variant="secondary"
          type="button"
          onClick={() => {
            form.reset(draftOf(settings.values));
            save.reset();
          }}
        >
          {t('accountManagement.reset')}
        </Button>
        <Button type="submit" data-testid="account-management-save" disabled={save.isPending}>
          {t('accountManagement.save')}
        </Button>
      </div>
    </form>
  );
}
