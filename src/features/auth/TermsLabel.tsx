import { Trans, useTranslation } from 'react-i18next';
import { brand } from '../../lib/brand';

/** "I accept the terms and conditions", linking to the brand's terms in a new tab when the brand has them. */
export function TermsLabel() {
  const { t } = useTranslation('auth');
  const termsLink = brand.termsLink ? (
    // biome-ignore lint/a11y/useAnchorContent: Trans puts the link text in
    <a href={brand.termsLink} target="_blank" rel="noreferrer" className="text-accent underline" />
  ) : (
    <span />
  );
  return <Trans t={t} i18nKey="auth.register.acceptTerms" components={{ 1: termsLink }} />;
}
