import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatCard, type StatCardProps } from '../../components/StatCard';
import { useFormat } from '../../lib/format';
import { useAccounts } from '../accounts/accounts.hooks';
import { useUser } from '../auth/auth-context';
import { useOrganizationsSubscriptions, useSubscriptions } from '../billing/billing.hooks';
import { useTokenBalance } from '../billing/useTokenBalance';

const isActive = (s: { status: string }) => s.status === 'active' || s.status === 'cancelling';

function LinkedStat({ to, ...card }: StatCardProps & { to: string; hint: ReactNode }) {
  return (
    <Link
      to={to}
      className="block rounded-2xl transition-transform hover:-translate-y-0.5 focus-visible:outline-2 focus-visible:outline-accent"
    >
      <StatCard {...card} />
    </Link>
  );
}

/** The logged-in dashboard's figures, each linking to the page behind it. */
export function DashboardStats() {
  const { t } = useTranslation('accounts');
  const { number } = useFormat();
  const { balance } = useTokenBalance();
  const subscriptions = useSubscriptions();
  // An organisation's subscription gives every member's NTRIP accounts access (docs/adr/0010), so it counts here.
  const teams = useUser()?.teams;
  const organizations = useOrganizationsSubscriptions(teams?.map((team) => team.id) ?? []);
  const accounts = useAccounts();
  const format = (n: number | undefined) => (n === undefined ? '—' : number(n));
  const personalActive = subscriptions.data?.subscriptions.filter(isActive).length;
  const organizationActive =
    teams && organizations.every((q) => q.data)
      ? organizations.reduce((sum, q) => sum + (q.data?.filter(isActive).length ?? 0), 0)
      : undefined;
  const active =
    personalActive === undefined || organizationActive === undefined ? undefined : personalActive + organizationActive;
  const rovers = accounts.data?.reduce((sum, a) => sum + a.connectedNow, 0);
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <LinkedStat
        to="/credits"
        title={t('dashboard.tokenBalance')}
        value={format(balance)}
        hint={t('dashboard.tokenHint')}
        status={{ from: 'green', to: 'blue' }}
      />
      <LinkedStat
        to="/subscriptions"
        title={t('dashboard.subscriptions')}
        value={format(active)}
        hint={
          organizationActive
            ? t('dashboard.subscriptionsOrganizationHint', { count: organizationActive })
            : t('dashboard.subscriptionsHint')
        }
      />
      <LinkedStat
        to="/accounts"
        title={t('dashboard.accounts')}
        value={format(accounts.data?.length)}
        hint={t('dashboard.accountsHint')}
      />
      <LinkedStat
        to="/accounts"
        title={t('dashboard.rovers')}
        value={format(rovers)}
        hint={t('dashboard.roversHint')}
        status={rovers ? { from: 'green', to: 'green' } : undefined}
      />
    </div>
  );
}
