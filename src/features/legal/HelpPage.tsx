import { DOCUMENT_KINDS } from '@portal/contract/legal-paths';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DOCS_URL } from '../../app/navigation';
import { Page } from '../../components/Page';
import { brand } from '../../lib/brand';
import { legalHref } from './legal-links';

const card = 'flex flex-col gap-2 rounded-2xl border border-line bg-panel p-5';

/** /help: how to reach the brand's support, where to start, and the legal documents; public. */
export function HelpPage() {
  const { t } = useTranslation();
  const { email, url } = brand.support;
  return (
    <Page name="help" title={t('help.title')} subtitle={t('help.subtitle', { product: brand.name })}>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        <section className={card} aria-labelledby="help-support" data-testid="help-support">
          <h2 id="help-support" className="text-base font-semibold text-ink">
            {t('help.supportTitle')}
          </h2>
          <p className="text-sm text-muted">{t('help.supportIntro')}</p>
          {email && (
            <p className="text-sm">
              {t('help.email')}{' '}
              <a href={`mailto:${email}`} className="text-accent underline">
                {email}
              </a>
            </p>
          )}
          {url && (
            <p className="text-sm">
              <a href={url} target="_blank" rel="noopener noreferrer" className="text-accent underline">
                {t('help.supportPage')}
              </a>
            </p>
          )}
        </section>
        <section className={card} aria-labelledby="help-start">
          <h2 id="help-start" className="text-base font-semibold text-ink">
            {t('help.startTitle')}
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
            <li>
              <Link to="/marketplace" className="text-accent underline">
                {t('help.coverage')}
              </Link>
            </li>
            <li>
              <Link to="/accounts" className="text-accent underline">
                {t('help.accounts')}
              </Link>
            </li>
            <li>
              <Link to="/credits" className="text-accent underline">
                {t('help.credits')}
              </Link>
            </li>
            {DOCS_URL && (
              <li>
                <a href={DOCS_URL} target="_blank" rel="noopener noreferrer" className="text-accent underline">
                  {t('help.docs')}
                </a>
              </li>
            )}
          </ul>
        </section>
        <section className={`${card} md:col-span-2`} aria-labelledby="help-legal">
          <h2 id="help-legal" className="text-base font-semibold text-ink">
            {t('help.legalTitle')}
          </h2>
          <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {DOCUMENT_KINDS.map((kind) => (
              <li key={kind}>
                <a href={legalHref(kind)} target="_blank" rel="noopener noreferrer" className="text-accent underline">
                  {t(`layout.legal.${kind}`)}
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </Page>
  );
}
