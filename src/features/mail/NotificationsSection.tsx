import {
  MAIL_LOCALES,
  type NotificationPreferences,
  notificationPreferencesSchema,
  OPTIONAL_MAIL_TOPICS,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';
import { useZodForm } from '../../lib/forms/useZodForm';
import { fetchNotificationPreferences, saveNotificationPreferences } from './mail.api';

const QUERY_KEY = ['user', 'notifications'];

/**
 * The mail part of /settings: which optional mails are sent, the low-balance threshold and the mails' language.
 * Invitations and payment receipts are always sent. `Section` is the settings page's card, so this looks like its
 * neighbours.
 */
export function NotificationsSection({
  Section,
}: {
  Section: (props: { title: string; children: ReactNode }) => ReactNode;
}) {
  const { t } = useTranslation('mail');
  const query = useQuery({ queryKey: QUERY_KEY, queryFn: fetchNotificationPreferences });
  return (
    <Section title={t('preferences.title')}>
      {query.isError ? <GenericErrorBlock /> : !query.data ? <Preloader /> : <PreferencesForm saved={query.data} />}
    </Section>
  );
}

function PreferencesForm({ saved }: { saved: NotificationPreferences }) {
  const { t } = useTranslation('mail');
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const save = useMutation({
    mutationFn: saveNotificationPreferences,
    onSuccess: (answer) => queryClient.setQueryData(QUERY_KEY, answer),
  });
  const form = useZodForm({
    initialValues: { ...saved, lowBalanceThreshold: String(saved.lowBalanceThreshold) },
    schema: notificationPreferencesSchema,
    toBody: (v) => ({
      ...v,
      lowBalanceThreshold: v.lowBalanceThreshold.trim() === '' ? Number.NaN : Number(v.lowBalanceThreshold),
    }),
    submit: (body) => {
      setDone(false);
      return save.mutateAsync(body);
    },
    onSuccess: () => setDone(true),
    ns: 'mail',
    failedText: t('preferences.failed'),
  });
  const { values: draft, set } = form;
  const error = form.firstError ?? form.general;
  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit} aria-label={t('preferences.title')} noValidate>
      <p className="text-sm text-muted">{t('preferences.always')}</p>
      <fieldset className="flex flex-col gap-3">
        <legend className="sr-only">{t('preferences.topicsLegend')}</legend>
        {OPTIONAL_MAIL_TOPICS.map((topic) => (
          <ToggleSwitch
            key={topic}
            label={t(`preferences.topics.${topic}`)}
            checked={draft[topic]}
            onChange={set(topic)}
          />
        ))}
      </fieldset>
      <TextField
        label={t('preferences.threshold')}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={draft.lowBalanceThreshold}
        disabled={!draft.lowBalance}
        hint={t('preferences.thresholdHint')}
        onChange={(e) => set('lowBalanceThreshold')(e.target.value)}
      />
      <SelectField
        label={t('preferences.language')}
        value={draft.locale}
        options={MAIL_LOCALES.map((value) => ({ value, label: t(`preferences.languages.${value}`) }))}
        onChange={(e) => set('locale')(e.target.value as NotificationPreferences['locale'])}
      />
      {error ? (
        <p role="alert" className="text-sm text-status-red">
          {error}
        </p>
      ) : (
        done && (
          <p role="status" className="text-sm text-muted">
            {t('preferences.saved')}
          </p>
        )
      )}
      <div>
        <Button type="submit" disabled={form.pending}>
          {t('preferences.save')}
        </Button>
      </div>
    </form>
  );
}
