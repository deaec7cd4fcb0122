import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ButtonLink } from '../components/Button';
import { Icon } from '../components/Icon';
import { Page } from '../components/Page';
import { isAdminPath } from './navigation';

/**
 * An address the portal has no page for (issue 32): said plainly, with the address and a way on, instead of a silent
 * redirect that looked as if the link had worked.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const home = isAdminPath(pathname) ? '/admin/map' : '/dashboard';
  return (
    <Page name="not-found" title={t('notFound.title')} hideHeading>
      <section
        aria-labelledby="not-found-title"
        data-testid="not-found"
        className="mx-auto mt-10 flex max-w-lg flex-col items-center gap-4 rounded-2xl border border-line bg-panel px-8 py-12 text-center"
      >
        <span className="flex size-14 items-center justify-center rounded-full bg-raised text-muted">
          <Icon name="map" size={28} />
        </span>
        <h1 id="not-found-title" className="text-xl font-semibold text-ink">
          {t('notFound.title')}
        </h1>
        <p className="text-sm break-all text-muted">{t('notFound.message', { path: pathname })}</p>
        <ButtonLink to={home} className="mt-2">
          {home === '/dashboard' ? t('notFound.toDashboard') : t('notFound.toAdminMap')}
        </ButtonLink>
      </section>
    </Page>
  );
}
