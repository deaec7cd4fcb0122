import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClass } from '../components/Button';
import { Icon } from '../components/Icon';

/** errorElement of the router: headed 'Unexpected Application Error!' (spec §8). */
export function RouterErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface p-6 text-ink">
      <div className="flex max-w-lg flex-col items-center gap-4 rounded-2xl border border-line bg-panel px-8 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-status-red/10 text-status-red">
          <Icon name="warning" size={28} />
        </span>
        <h1 className="text-xl font-semibold">{t('routerError.title')}</h1>
        <p className="text-sm text-muted">{t('routerError.message')}</p>
        {detail && (
          <pre className="max-w-full overflow-x-auto rounded-lg bg-surface px-3 py-2 text-xs text-subtle">{detail}</pre>
        )}
        <div className="flex gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={() => window.location.reload()}>
            {t('routerError.reload')}
          </button>
          <a href="/dashboard" className={buttonClass('primary')}>
            {t('restrictedAccess.backToDashboard')}
          </a>
        </div>
      </div>
    </main>
  );
}
