import { useTranslation } from 'react-i18next';
import { ButtonLink } from './Button';
import { Icon } from './Icon';

/** What a non-admin sees on an admin route (spec §2, §8). */
export function RestrictedAccess() {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby="restricted-access-title"
      className="mx-auto mt-10 flex max-w-lg flex-col items-center gap-4 rounded-2xl border border-line bg-panel px-8 py-12 text-center"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-status-yellow/10 text-status-yellow">
        <Icon name="lock" size={28} />
      </span>
      <h1 id="restricted-access-title" className="text-xl font-semibold text-ink">
        {t('restrictedAccess.title')}
      </h1>
      <p className="text-sm text-muted">{t('restrictedAccess.message')}</p>
      <ButtonLink to="/dashboard" className="mt-2">
        {t('restrictedAccess.backToDashboard')}
      </ButtonLink>
    </section>
  );
}
