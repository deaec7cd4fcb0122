import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { buttonClass } from '../components/Button';
import { Icon } from '../components/Icon';

/** The page a route that failed shows instead: headed 'Unexpected Application Error!' (spec §8). */
export function RouterErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const detail = error instanceof Error ? error.message : undefined;
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

interface BoundaryState {
  failed?: { error: unknown; pathname: string };
}

class ErrorBoundary extends Component<{ pathname: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = {};

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: { error, pathname: '' } };
  }

  // A failure belongs to the address it happened at: leaving it (back, a link) shows the routes again.
  static getDerivedStateFromProps(props: { pathname: string }, state: BoundaryState): Partial<BoundaryState> | null {
    if (!state.failed) return null;
    if (state.failed.pathname === '') return { failed: { ...state.failed, pathname: props.pathname } };
    return state.failed.pathname === props.pathname ? null : { failed: undefined };
  }

  override render() {
    return this.state.failed ? <RouterErrorPage error={this.state.failed.error} /> : this.props.children;
  }
}

/**
 * What the data router's errorElement did, without the data router (its code is twice the declarative router's):
 * a page that throws while rendering, or whose chunk fails or times out, shows the error page.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorBoundary pathname={useLocation().pathname}>{children}</ErrorBoundary>;
}
