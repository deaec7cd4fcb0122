import { Trans, useTranslation } from 'react-i18next';
import { termsHref } from '../legal/legal-links';

/**
 * "I accept the terms and conditions", linking in a new tab to the terms: the portal's published version, or the
 * brand's own page when it has one.
 */
export function TermsLabel() {
  const { t } = useTranslation('auth');
  return (
    <Trans
      t={t}
      i18nKey="auth.register.acceptTerms"
      components={{
        // biome-ignore lint/a11y/useAnchorContent: Trans puts the link text in
        1: <a href={termsHref} target="_blank" rel="noreferrer" className="text-accent underline" />,
      }}
    />
  );
}
