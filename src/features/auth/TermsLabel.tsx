import { Trans, useTranslation } from 'react-i18next';
import { brand } from '../../lib/brand';

/**
 * "I accept the terms and conditions", linking in a new tab to `href` (the published version) or else to the brand's
 * terms when the brand has them.
 */
export function TermsLabel({ href = brand.termsLink }: { href?: string }) {
  const { t } = useTranslation('auth');
  const termsLink = href ? (
    // biome-ignore lint/a11y/useAnchorContent: Trans puts the link text in
    <a href={href} target="_blank" rel="noreferrer" className="text-accent underline" />
  ) : (
    <span />
  );
  return <Trans t={t} i18nKey="auth.register.acceptTerms" components={{ 1: termsLink }} />;
}
