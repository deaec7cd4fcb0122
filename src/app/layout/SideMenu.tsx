import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { Button, ButtonLink } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useUser } from '../../features/auth/auth-context';
import { useOpenLogin } from '../../features/auth/login-modal-context';
import { WhiteLabelLink } from '../../features/demo/WhiteLabelLink';
import { legalHref } from '../../features/legal/legal-links';
import { brand } from '../../lib/brand';
import { ACCOUNT_PAGE_URL, adminMenu, HELP_URL, ORGANIZATIONS_URL, personalMenu } from '../navigation';
import { MenuEntries } from './MenuEntries';
import { profileLabelKey, useLogout, useProfileType } from './shell-hooks';

// An admin's only: not part of a visitor's first load.
const ProfileSwitcher = lazy(async () => ({ default: (await import('./ProfileSwitcher')).ProfileSwitcher }));

// A signed-in user's with organisations only: not part of a visitor's first load.
const OrganizationSwitcher = lazy(async () => ({
  default: (await import('../../features/organizations/OrganizationSwitcher')).OrganizationSwitcher,
}));

/** Credit-purchase box: logged in and not in the Admin profile (spec §2, §6). */
function CreditsBox() {
  const { t } = useTranslation();
  return (
    <Link
      to="/credits"
      className="block rounded-xl border border-line bg-gradient-to-br from-raised to-panel p-3.5 hover:border-line-strong"
    >
      <span className="flex items-center gap-2 text-sm font-semibold text-ink">
        <Icon name="coins" size={16} className="text-accent" />
        {t('sideMenu.credits.title')}
      </span>
      <span className="mt-1 block text-xs text-muted">{t('sideMenu.credits.text')}</span>
    </Link>
  );
}

/** Upgrade-to-pro item: promotions on and not rebranded (spec §1, §6). */
function UpgradeToPro() {
  const { t } = useTranslation();
  return (
    <div className="rounded-xl border border-accent/25 bg-accent/8 p-3.5">
      <p className="flex items-center gap-2 text-sm font-semibold text-ink">
        <Icon name="sparkle" size={16} className="text-accent" />
        {t('sideMenu.upgrade.title')}
      </p>
      <p className="mt-1 text-xs text-muted">{t('sideMenu.upgrade.text')}</p>
      <ButtonLink to="/subscriptions" size="sm" className="mt-3 w-full">
        {t('sideMenu.upgrade.cta')}
      </ButtonLink>
    </div>
  );
}

function AnonymousPrompt() {
  const { t } = useTranslation();
  const openLogin = useOpenLogin();
  return (
    <div className="rounded-xl border border-line bg-raised p-3.5">
      <p className="text-sm font-semibold text-ink">{t('sideMenu.anonymous.title')}</p>
      <p className="mt-1 text-xs text-muted">{t('sideMenu.anonymous.text')}</p>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <Button size="sm" onClick={() => openLogin('login')}>
          {t('header.logIn')}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => openLogin('signup')}>
          {t('sideMenu.anonymous.signUp')}
        </Button>
      </div>
    </div>
  );
}

/** The user menu at the foot of the side menu: account (billing) and log out. */
function UserMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  if (!user) return null;
  const name = user.username || t('layout.fallbackUser');
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="user-menu"
        aria-label={t('sideMenu.userMenu', { name })}
        onClick={() => setOpen((v) => !v)}
        className={`flex w-full items-center gap-3 rounded-lg p-2 text-left hover:bg-hover ${collapsed ? 'justify-center' : ''}`}
      >
        <Avatar photoURL={user.photoURL} size={32} />
        {!collapsed && (
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-ink">{name}</span>
            {user.email && <span className="block truncate text-xs text-subtle">{user.email}</span>}
          </span>
        )}
      </button>
      {open && (
        <ul
          id="user-menu"
          className={`absolute bottom-full z-30 mb-2 w-56 rounded-xl border border-line-strong bg-raised p-1 shadow-xl shadow-black/40 ${collapsed ? 'left-0' : 'inset-x-0 w-auto'}`}
        >
          <li>
            <Link
              to={`${ACCOUNT_PAGE_URL}/billing`}
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-muted hover:bg-hover hover:text-ink"
            >
              <Icon name="user" size={16} />
              {t('sideMenu.account')}
            </Link>
          </li>
          <li>
            <Link
              to={ORGANIZATIONS_URL}
              onClick={() => setOpen(false)}
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-muted hover:bg-hover hover:text-ink"
            >
              <Icon name="users" size={16} />
              {t('navigation.organizations')}
            </Link>
          </li>
          <li>
            <button
              type="button"
              onClick={() => void logout()}
              className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-muted hover:bg-hover hover:text-ink"
            >
              <Icon name="logout" size={16} />
              {t('layout.logOut')}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

function FooterLinks() {
  const { t } = useTranslation();
  const status = (
    <Link to="/status" className="text-muted hover:text-ink">
      {t('layout.status')}
    </Link>
  );
  if (brand.isRebranded) {
    return (
      <p className="flex flex-wrap gap-x-4 px-1 text-xs text-subtle">
        {status}
        <span>
          {t('layout.poweredBy')}{' '}
          {brand.poweredBy ? (
            <a
              href={brand.poweredBy.url}
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium text-muted hover:text-ink"
            >
              {brand.poweredBy.name}
            </a>
          ) : null}
        </span>
      </p>
    );
  }
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1 px-1 text-xs">
      <Link to={HELP_URL} className="inline-flex items-center gap-1 text-muted hover:text-ink">
        <Icon name="help" size={14} />
        {t('layout.help')}
      </Link>
      {status}
      {(['terms', 'privacy', 'dpa'] as const).map((kind) => (
        <a
          key={kind}
          href={legalHref(kind)}
          target="_blank"
          rel="noopener noreferrer"
          className="text-muted hover:text-ink"
        >
          {t(`layout.legal.${kind}`)}
        </a>
      ))}
    </div>
  );
}

export interface SideMenuProps {
  open: boolean;
  isMobile: boolean;
  onToggle: () => void;
  onOpen: () => void;
  onClose: () => void;
}

/**
 * The side menu (spec §2, §4): 260px open, 60px collapsed on desktop; on mobile a drawer over the page that is
 * closed unless opened.
 */
export function SideMenu({ open, isMobile, onToggle, onOpen, onClose }: SideMenuProps) {
  const { t } = useTranslation();
  const user = useUser();
  const profile = useProfileType();
  const collapsed = !open && !isMobile;
  const entries = profile === 'Admin' && user?.isAdmin ? adminMenu : personalMenu;

  if (isMobile && !open) return null;

  return (
    <>
      {isMobile && <div className="fixed inset-0 top-header z-30 bg-black/60" aria-hidden="true" onClick={onClose} />}
      <aside
        id="side-menu"
        data-state={open ? 'open' : 'closed'}
        aria-label={t('layout.sideMenu')}
        className={`z-30 flex shrink-0 flex-col border-r border-line bg-panel transition-[width] duration-200 ${
          isMobile
            ? 'fixed top-header bottom-0 left-0 w-sidemenu-open shadow-2xl'
            : 'sticky top-header h-[calc(100vh-var(--spacing-header))]'
        } ${!isMobile && open ? 'w-sidemenu-open' : ''} ${collapsed ? 'w-sidemenu-closed' : ''}`}
      >
        <div className={`flex items-center gap-2 border-b border-line p-3 ${collapsed ? 'flex-col' : ''}`}>
          <div className="min-w-0 flex-1">
            {user?.isAdmin ? (
              <Suspense fallback={null}>
                <ProfileSwitcher compact={collapsed} />
              </Suspense>
            ) : (
              !collapsed && (
                <p className="px-2 text-[11px] font-semibold tracking-widest text-subtle uppercase">
                  {t(profileLabelKey(profile))}
                </p>
              )
            )}
          </div>
          {!isMobile && (
            <button
              type="button"
              onClick={onToggle}
              aria-expanded={open}
              aria-controls="side-menu"
              aria-label={open ? t('layout.collapseMenu') : t('layout.expandMenu')}
              title={open ? t('layout.collapseMenu') : t('layout.expandMenu')}
              className="flex size-9 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-hover hover:text-ink"
            >
              <Icon name="chevronLeft" size={18} className={`transition-transform ${open ? '' : 'rotate-180'}`} />
            </button>
          )}
        </div>

        {!collapsed && user && profile !== 'Admin' && (
          <div className="border-b border-line p-3">
            <Suspense fallback={null}>
              <OrganizationSwitcher />
            </Suspense>
          </div>
        )}
        <nav aria-label={t('layout.mainNavigation')} className="flex-1 overflow-y-auto overflow-x-hidden p-2.5">
          <MenuEntries
            entries={entries}
            collapsed={collapsed}
            sideMenuOpen={open}
            isMobile={isMobile}
            onExpand={onOpen}
          />
        </nav>

        <div className="flex flex-col gap-3 border-t border-line p-3">
          {!collapsed && user && profile !== 'Admin' && <CreditsBox />}
          {!collapsed && user && profile !== 'Admin' && brand.showPromotionCTAs && !brand.isRebranded && (
            <UpgradeToPro />
          )}
          {!collapsed && !user && <AnonymousPrompt />}
          {!collapsed && profile !== 'Admin' && <WhiteLabelLink />}
          <UserMenu collapsed={collapsed} />
          {!collapsed && <FooterLinks />}
        </div>
      </aside>
    </>
  );
}
