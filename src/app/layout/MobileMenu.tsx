import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useUser } from '../../features/auth/auth-context';
import { brand } from '../../lib/brand';
import { adminMenu, HELP_URL, personalMenu } from '../navigation';
import { MenuEntries } from './MenuEntries';
import { ProfileSwitcher } from './ProfileSwitcher';
import { useLogout, useProfileType } from './shell-hooks';

// A signed-in user's with organisations only: not part of a visitor's first load.
const OrganizationSwitcher = lazy(async () => ({
  default: (await import('../../features/organizations/OrganizationSwitcher')).OrganizationSwitcher,
}));

/**
 * The hamburger menu at 768px and less (spec §2): photo or icon, username (fallback 'RTK User'), e-mail,
 * navigation, 'Need Help?' (the help page), Log out, or Log in (→ /login) when logged out.
 */
export function MobileMenu({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useUser();
  const profile = useProfileType();
  const logout = useLogout();
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        onClose();
        document.querySelector<HTMLElement>('[aria-controls="mobile-menu"]')?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const entries = profile === 'Admin' && user?.isAdmin ? adminMenu : personalMenu;
  return (
    <div
      id="mobile-menu"
      ref={panel}
      className="fixed inset-x-0 top-header bottom-0 z-40 flex flex-col overflow-y-auto border-t border-line bg-panel md:hidden"
    >
      <div className="flex items-center gap-3 border-b border-line px-4 py-4">
        <Avatar photoURL={user?.photoURL} size={44} />
        <div className="min-w-0">
          <p className="truncate text-base font-semibold text-ink" data-testid="mobile-username">
            {user?.username || t('layout.fallbackUser')}
          </p>
          {user?.email && <p className="truncate text-sm text-muted">{user.email}</p>}
        </div>
      </div>
      {user?.isAdmin && (
        <div className="border-b border-line px-4 py-3">
          <ProfileSwitcher />
        </div>
      )}
      {user && profile !== 'Admin' && (user.teams?.length ?? 0) > 0 && (
        <div className="border-b border-line px-4 py-3">
          <Suspense fallback={null}>
            <OrganizationSwitcher />
          </Suspense>
        </div>
      )}
      <nav aria-label={t('layout.mainNavigation')} className="flex-1 px-3 py-3">
        <MenuEntries entries={entries} collapsed={false} sideMenuOpen isMobile onExpand={() => undefined} />
      </nav>
      <div className="flex flex-col gap-2 border-t border-line px-4 py-4">
        {!brand.isRebranded && (
          <Link
            to={HELP_URL}
            className="flex h-10 items-center gap-2 rounded-lg px-2 text-sm font-medium text-muted hover:bg-hover hover:text-ink"
          >
            <Icon name="help" size={18} />
            {t('layout.needHelp')}
          </Link>
        )}
        {user ? (
          <Button variant="secondary" onClick={() => void logout()}>
            <Icon name="logout" size={16} />
            {t('layout.logOut')}
          </Button>
        ) : (
          <Button onClick={() => navigate('/login')}>
            <Icon name="login" size={16} />
            {t('header.logIn')}
          </Button>
        )}
        {brand.isRebranded && brand.poweredBy && (
          <p className="pt-2 text-center text-xs text-subtle">
            {t('layout.poweredBy')}{' '}
            <a href={brand.poweredBy.url} target="_blank" rel="noopener noreferrer" className="text-muted">
              {brand.poweredBy.name}
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
