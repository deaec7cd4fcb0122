import { useTranslation } from 'react-i18next';
import { type Language, SUPPORTED_LANGUAGES } from '../lib/i18n';
import { Dropdown } from './Dropdown';

/** Language selector (English, Nederlands); the choice is cached in local storage and a cookie by i18next. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = (SUPPORTED_LANGUAGES as readonly string[]).includes(i18n.resolvedLanguage ?? '')
    ? (i18n.resolvedLanguage as Language)
    : 'en';
  return (
    <Dropdown<Language>
      className={className}
      label={t('language.label')}
      value={current}
      options={SUPPORTED_LANGUAGES.map((lng) => ({ value: lng, label: t(`language.${lng}`) }))}
      onSelect={(lng) => void i18n.changeLanguage(lng)}
    />
  );
}
