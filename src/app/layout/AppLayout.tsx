import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { Preloader } from '../../components/Preloader';
import { Header } from './Header';
import { SideMenu } from './SideMenu';
import { useSideMenuState } from './side-menu-state';

// Drawn when the hamburger is tapped, not on a first visit.
const MobileMenu = lazy(async () => ({ default: (await import('./MobileMenu')).MobileMenu }));

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href="#main-content"
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[200] focus:rounded-lg focus:bg-accent focus:px-4 focus:py-2 focus:text-on-accent"
    >
      {t('layout.skipToContent')}
    </a>
  );
}

function useMobileMenu() {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes after every route change
  useEffect(() => setOpen(false), [pathname]);
  const close = useCallback(() => setOpen(false), []);
  return { open, toggle: () => setOpen((v) => !v), close };
}

/**
 * Main column: at most 1200px wide (spec §2, §9). A page waiting for its texts (a namespace of its own) waits here,
 * with the header, the menu and the cookie question already drawn, instead of the whole app behind a spinner.
 */
export function MainContent({ children }: { children: ReactNode }) {
  return (
    <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 outline-none">
      <div className="mx-auto w-full max-w-content px-4 py-6 md:px-8 md:py-8">
        <Suspense fallback={<Preloader />}>{children}</Suspense>
      </div>
    </main>
  );
}

/** Header, side menu and main content: the layout of every page with navigation. */
export function AppLayout() {
  const { pathname } = useLocation();
  const side = useSideMenuState(pathname);
  const mobileMenu = useMobileMenu();
  const showMobileMenu = mobileMenu.open && side.isMobile;
  const drawerOpen = side.isMobile && side.open;
  const { setOpen } = side;
  // On mobile the side menu is a drawer over the page: Escape closes it and focus goes into it.
  useEffect(() => {
    if (!drawerOpen) return;
    document.querySelector<HTMLElement>('#side-menu a, #side-menu button')?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen, setOpen]);
  return (
    <div className="min-h-screen bg-surface text-ink">
      <SkipLink />
      <Header mobileMenuOpen={showMobileMenu} onToggleMobileMenu={mobileMenu.toggle} />
      <div className="flex">
        <SideMenu
          open={side.open}
          isMobile={side.isMobile}
          onToggle={side.toggle}
          onOpen={() => side.setOpen(true)}
          onClose={() => side.setOpen(false)}
        />
        <MainContent>
          <Outlet />
        </MainContent>
      </div>
      {showMobileMenu && (
        <Suspense fallback={null}>
          <MobileMenu onClose={mobileMenu.close} />
        </Suspense>
      )}
    </div>
  );
}

/** Header and content, no side menu (spec §2 "a layout without a sidebar"). */
export function LayoutWithoutSidebar({ children }: { children?: ReactNode }) {
  const mobileMenu = useMobileMenu();
  const side = useSideMenuState(useLocation().pathname);
  const showMobileMenu = mobileMenu.open && side.isMobile;
  return (
    <div className="min-h-screen bg-surface text-ink">
      <SkipLink />
      <Header mobileMenuOpen={showMobileMenu} onToggleMobileMenu={mobileMenu.toggle} />
      <MainContent>{children ?? <Outlet />}</MainContent>
      {showMobileMenu && (
        <Suspense fallback={null}>
          <MobileMenu onClose={mobileMenu.close} />
        </Suspense>
      )}
    </div>
  );
}
