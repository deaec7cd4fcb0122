/**
 * Stand-ins for pages whose content other features build (now only the admin settings pages). Each is one small component: replace its line in
 * routes.tsx with the real page's lazy import and delete it here.
 */
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../components/Icon';
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

export const AdminSettingsPage = () => <Placeholder page="admin-settings" icon="settings" titleKey="adminSettings" />;
