import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../components/Button';
import { Icon, type IconName } from '../../components/Icon';
import { Page } from '../../components/Page';
import { brand } from '../../lib/brand';
import { lazyWithQueries } from '../../lib/query-client-slot';
import { useUser } from '../auth/auth-context';
import { useOpenLogin } from '../auth/login-modal-context';

// Only a logged-in user sees the figures; their hooks and schemas stay out of a visitor's first load.
const DashboardStats = lazyWithQueries(async () => (await import('./DashboardStats')).DashboardStats);

/** Holds the stat cards' place while they load, so nothing below them moves. */
function StatsPlaceholder() {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-hidden="true">
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="h-[118px] rounded-2xl border border-line bg-panel" />
      ))}
    </div>
  );
}

const features: Array<{ key: string; icon: IconName }> = [
  { key: 'rtk', icon: 'antenna' },
  { key: 'rinex', icon: 'layers' },
  { key: 'tokens', icon: 'coins' },
];

const quickActions: Array<{ key: string; icon: IconName; url: string }> = [
  { key: 'subscribe', icon: 'repeat', url: '/subscriptions' },
  { key: 'credits', icon: 'coins', url: '/credits' },
  { key: 'accounts', icon: 'key', url: '/accounts' },
  { key: 'coverage', icon: 'globe', url: '/marketplace' },
  { key: 'rinex', icon: 'layers', url: '/rinex' },
];

function LoggedOutDashboard() {
  const { t } = useTranslation();
  const openLogin = useOpenLogin();
  return (
    <>
      <section className="relative overflow-hidden rounded-3xl border border-line bg-panel px-6 py-10 md:px-10 md:py-14">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 [background:radial-gradient(600px_circle_at_100%_0%,rgb(var(--brand-primary-rgb)/0.10),transparent_60%)]"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 opacity-30 [background-image:radial-gradient(var(--color-line-strong)_1px,transparent_1px)] [background-size:24px_24px] [mask-image:linear-gradient(to_left,black,transparent_70%)]"
        />
        <div className="relative max-w-2xl">
          <p className="inline-flex items-center gap-2 rounded-full border border-accent/30 bg-accent/10 px-3 py-1 text-xs font-semibold text-accent">
            <span className="size-1.5 rounded-full bg-accent" aria-hidden="true" />
            {t('dashboard.public.badge')}
          </p>
          <h1 className="mt-5 text-2xl font-semibold tracking-tight text-ink sm:text-3xl md:text-4xl">
            {t('dashboard.public.title')}
          </h1>
          <p className="mt-4 text-base text-muted">{t('dashboard.public.lead', { product: brand.name })}</p>
          <div className="mt-7 flex flex-wrap gap-3">
            <Button onClick={() => openLogin('signup')}>{t('dashboard.public.getStarted')}</Button>
            <ButtonLink to="/marketplace" variant="secondary">
              <Icon name="globe" size={16} />
              {t('dashboard.public.viewCoverage')}
            </ButtonLink>
          </div>
        </div>
      </section>
      <section aria-labelledby="dashboard-features" className="flex flex-col gap-4">
        <h2 id="dashboard-features" className="text-base font-semibold text-ink">
          {t('dashboard.public.featuresTitle')}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {features.map((f) => (
            <li key={f.key} className="rounded-2xl border border-line bg-panel p-5">
              <span className="flex size-10 items-center justify-center rounded-xl bg-accent/10 text-accent">
                <Icon name={f.icon} size={20} />
              </span>
              <h3 className="mt-4 text-sm font-semibold text-ink">{t(`dashboard.public.features.${f.key}.title`)}</h3>
              <p className="mt-1.5 text-sm text-muted">{t(`dashboard.public.features.${f.key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function LoggedInDashboard() {
  const { t } = useTranslation();
  return (
    <>
      <Suspense fallback={<StatsPlaceholder />}>
        <DashboardStats />
      </Suspense>
      <section aria-labelledby="dashboard-actions" className="flex flex-col gap-4">
        <h2 id="dashboard-actions" className="text-base font-semibold text-ink">
          {t('dashboard.user.quickActions')}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
          {quickActions.map((a) => (
            <li key={a.key}>
              <Link
                to={a.url}
                className="group flex h-full flex-col rounded-2xl border border-line bg-panel p-5 transition-colors hover:border-accent/40 hover:bg-raised"
              >
                <span className="flex size-10 items-center justify-center rounded-xl bg-accent/10 text-accent">
                  <Icon name={a.icon} size={20} />
                </span>
                <span className="mt-4 flex items-center gap-1 text-sm font-semibold text-ink">
                  {t(`dashboard.user.actions.${a.key}.title`)}
                  <Icon
                    name="chevronRight"
                    size={14}
                    className="text-subtle transition-transform group-hover:translate-x-0.5"
                  />
                </span>
                <span className="mt-1.5 text-sm text-muted">{t(`dashboard.user.actions.${a.key}.text`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="rounded-2xl border border-line bg-panel p-5 md:p-6" aria-labelledby="dashboard-connect">
        <h2 id="dashboard-connect" className="text-base font-semibold text-ink">
          {t('dashboard.user.connectTitle')}
        </h2>
        <ol className="mt-4 grid gap-4 md:grid-cols-3">
          {[1, 2, 3].map((step) => (
            <li key={step} className="flex gap-3">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full border border-line-strong text-xs font-semibold text-ink">
                {step}
              </span>
              <span className="text-sm text-muted">{t(`dashboard.user.connectSteps.${step}`)}</span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

export function DashboardPage() {
  const { t } = useTranslation();
  const user = useUser();
  return (
    <Page
      name="dashboard"
      title={t('pages.dashboard.title')}
      hideHeading={!user}
      subtitle={
        user
          ? t(user.firstSession ? 'dashboard.user.welcomeNew' : 'dashboard.user.welcome', {
              name: user.username || t('layout.fallbackUser'),
            })
          : undefined
      }
    >
      {user ? <LoggedInDashboard /> : <LoggedOutDashboard />}
    </Page>
  );
}
