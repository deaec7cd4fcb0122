import { useTranslation } from 'react-i18next';
import { termsHref } from '../legal/legal-links';

/**
 * "I accept the terms and conditions", linking in a new tab to the terms: the portal's published version, or the
 * brand's own page when it has one. The text marks the link as `<1>…</1>` (Trans's notation); it is cut there by
 * hand because react-i18next's Trans and its HTML parser were 5 KiB gzip of /signup's first visit (issue 39), for
 * this one label.
 */
export function TermsLabel() {
  const { t } = useTranslation('auth');
  const [before, link, after] = t('auth.register.acceptTerms').split(/<\/?1>/);
  return (
    <>
      {before}
      {link !== undefined && (
        <a href={termsHref} target="_blank" rel="noreferrer" className="text-accent underline">
          {link}
        </a>
      )}
      {after}
    </>
  );
}
