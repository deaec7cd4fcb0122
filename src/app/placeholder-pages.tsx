/**
 * Stand-ins for pages whose content other features build. Each is one small component: replace its line in
 * routes.tsx with the real page's lazy import and delete it here.
 */
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Icon, type IconName } from '../components/Icon';
import { LanguageSwitcher } from '../components/LanguageSwitcher';
import { Page } from '../components/Page';

function Placeholder({ page, icon, titleKey }: { page: string; icon: IconName; titleKey: string }) {
  const { t } = useTranslation();
  const title = t(`pages.${titleKey}.title`);
  return (
    <Page name={page} title={title} subtitle={t(`pages.${titleKey}.description`)}>
      <section
        data-testid="placeholder-page"
        className="relative flex min-h-[360px] flex-col items-center justify-center gap-3 overflow-hidden rounded-2xl border border-line bg-panel px-6 py-16 text-center"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 opacity-40 [background-image:radial-gradient(var(--color-line-strong)_1px,transparent_1px)] [background-size:22px_22px]"
        />
        <span className="relative flex size-14 items-center justify-center rounded-2xl border border-line-strong bg-raised text-accent">
          <Icon name={icon} size={26} />
        </span>
        <p className="relative text-base font-semibold text-ink">{title}</p>
        <p className="relative max-w-md text-sm text-muted">{t('pages.placeholder')}</p>
      </section>
    </Page>
  );
}

export const AccountsPage = () => <Placeholder page="accounts" icon="key" titleKey="accounts" />;
export const CreditsPage = () => <Placeholder page="credits" icon="coins" titleKey="credits" />;
export const SubscriptionsPage = () => <Placeholder page="subscriptions" icon="repeat" titleKey="subscriptions" />;
export const CheckoutPage = () => <Placeholder page="checkout" icon="receipt" titleKey="checkout" />;
/** Replaced by the auth feature's account settings page (/settings and /settings/{settingsPage}). */
export function SettingsPagePlaceholder() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6">
      <Placeholder page="settings" icon="settings" titleKey="settings" />
      <section className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-line bg-panel p-5">
        <h2 className="text-sm font-semibold text-ink">{t('language.label')}</h2>
        <LanguageSwitcher />
      </section>
    </div>
  );
}

export const AdminProductsPage = () => {
  const { productsPage } = useParams();
  return (
    <Placeholder page={`admin-products${productsPage ? `-${productsPage}` : ''}`} icon="box" titleKey="adminProducts" />
  );
};
export const AdminSubscriptionsPage = () => (
  <Placeholder page="admin-subscriptions" icon="repeat" titleKey="adminSubscriptions" />
);
export const AdminAccountsPage = () => <Placeholder page="admin-accounts" icon="key" titleKey="adminAccounts" />;
export const AdminSettingsPage = () => <Placeholder page="admin-settings" icon="settings" titleKey="adminSettings" />;
