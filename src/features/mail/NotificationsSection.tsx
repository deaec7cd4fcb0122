import {
  MAIL_LOCALES,
  type NotificationPreferences,
  notificationPreferencesSchema,
  OPTIONAL_MAIL_TOPICS,
  type OptionalMailTopic,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { GenericErrorBlock } from '../../components/GenericErrorBlock';
import { Preloader } from '../../components/Preloader';
import { apiError } from '../../lib/api';
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
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: QUERY_KEY, queryFn: fetchNotificationPreferences });
  const [draft, setDraft] = useState<NotificationPreferences>();
  const [threshold, setThreshold] = useState('');
  const [message, setMessage] = useState<{ type: 'info' | 'error'; text: string }>();
  useEffect(() => {
    if (query.data) {
      setDraft(query.data);
      setThreshold(String(query.data.lowBalanceThreshold));
    }
  }, [query.data]);
  const save = useMutation({
    mutationFn: saveNotificationPreferences,
    onSuccess: (saved) => {
      queryClient.setQueryData(QUERY_KEY, saved);
      setMessage({ type: 'info', text: t('preferences.saved') });
    },
    onError: (error) => setMessage({ type: 'error', text: apiError(error)?.message ?? t('preferences.failed') }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const parsed = notificationPreferencesSchema.safeParse({
      ...draft,
      lowBalanceThreshold: threshold.trim() === '' ? Number.NaN : Number(threshold),
    });
    if (!parsed.success) {
      setMessage({ type: 'error', text: t('preferences.invalidThreshold') });
      return;
    }
    setMessage(undefined);
    save.mutate(parsed.data);
  };
  const toggle = (topic: OptionalMailTopic, on: boolean) => setDraft((d) => d && { ...d, [topic]: on });

  return (
    <Section title={t('preferences.title')}>
      {query.isError ? (
        <GenericErrorBlock />
      ) : !draft ? (
        <Preloader />
      ) : (
        <form className="flex flex-col gap-4" onSubmit={submit} aria-label={t('preferences.title')} noValidate>
          <p className="text-sm text-muted">{t('preferences.always')}</p>
          <fieldset className="flex flex-col gap-3">
            <legend className="sr-only">{t('preferences.topicsLegend')}</legend>
            {OPTIONAL_MAIL_TOPICS.map((topic) => (
              <ToggleSwitch
                key={topic}
                label={t(`preferences.topics.${topic}`)}
                checked={draft[topic]}
                onChange={(on) => toggle(topic, on)}
              />
            ))}
          </fieldset>
          <TextField
            label={t('preferences.threshold')}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={threshold}
            disabled={!draft.lowBalance}
            hint={t('preferences.thresholdHint')}
            onChange={(e) => setThreshold(e.target.value)}
          />
          <SelectField
            label={t('preferences.language')}
            value={draft.locale}
            options={MAIL_LOCALES.map((value) => ({ value, label: t(`preferences.languages.${value}`) }))}
            onChange={(e) => setDraft({ ...draft, locale: e.target.value as NotificationPreferences['locale'] })}
          />
          {message && (
            <p
              role={message.type === 'error' ? 'alert' : 'status'}
              className={message.type === 'error' ? 'text-sm text-status-red' : 'text-sm text-muted'}
            >
              {message.text}
            </p>
          )}
          <div>
            <Button type="submit" disabled={save.isPending}>
              {t('preferences.save')}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
