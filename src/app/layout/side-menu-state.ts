import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

/** Spec §9 constants. */
export const SIDEMENU_STORAGE_KEY = 'layout-sidemenu-open';
export const submenuStorageKey = (label: string, icon: string) => `submenu-open-${label}-${icon}`;
export const MOBILE_MAX_WIDTH = 768;
export const MOBILE_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;
/** Window events other parts of the app dispatch to drive the side menu. */
export const OPEN_SIDEBAR_EVENT = 'openSidebar';
export const CLOSE_SIDEBAR_EVENT = 'closeSidebar';

export const openSidebar = () => window.dispatchEvent(new Event(OPEN_SIDEBAR_EVENT));
export const closeSidebar = () => window.dispatchEvent(new Event(CLOSE_SIDEBAR_EVENT));

function readFlag(key: string): boolean | undefined {
  try {
    const value = window.localStorage.getItem(key);
    return value === null ? undefined : value === 'true';
  } catch {
    return undefined;
  }
}

function writeFlag(key: string, value: boolean): void {
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // storage unavailable (private mode): the state just is not remembered
  }
}

function isMobileNow(): boolean {
  return typeof window !== 'undefined' && window.innerWidth <= MOBILE_MAX_WIDTH;
}

function subscribeResize(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** True at 768px wide or less. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribeResize, isMobileNow, () => false);
}

/**
 * Open/collapsed state of the side menu (spec §4): remembered under `layout-sidemenu-open` on desktop, always closed
 * on mobile and after every route change there; the window events `openSidebar` / `closeSidebar` drive it too.
 */
export function useSideMenuState(pathname: string) {
  const isMobile = useIsMobile();
  const [desktopOpen, setDesktopOpen] = useState(() => readFlag(SIDEMENU_STORAGE_KEY) ?? true);
  const [mobileOpen, setMobileOpen] = useState(false);

  const setOpen = useCallback((open: boolean) => {
    if (isMobileNow()) {
      setMobileOpen(open);
      return;
    }
    setDesktopOpen(open);
    writeFlag(SIDEMENU_STORAGE_KEY, open);
  }, []);

  // Closed whenever the window becomes mobile-sized, and after each route change on mobile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not an input
  useEffect(() => {
    setMobileOpen(false);
  }, [isMobile, pathname]);

  useEffect(() => {
    const open = () => setOpen(true);
    const close = () => setOpen(false);
    window.addEventListener(OPEN_SIDEBAR_EVENT, open);
    window.addEventListener(CLOSE_SIDEBAR_EVENT, close);
    return () => {
      window.removeEventListener(OPEN_SIDEBAR_EVENT, open);
      window.removeEventListener(CLOSE_SIDEBAR_EVENT, close);
    };
  }, [setOpen]);

  const open = isMobile ? mobileOpen : desktopOpen;
  return { open, isMobile, setOpen, toggle: () => setOpen(!open) };
}

/**
 * Open state of one submenu, remembered under `submenu-open-{label}-{icon}`. It collapses (and is remembered
 * collapsed) when the side menu collapses on desktop.
 */
export function useSubmenuState(
  label: string,
  icon: string,
  sideMenuOpen: boolean,
  isMobile: boolean,
  initial = false,
) {
  const key = submenuStorageKey(label, icon);
  const [open, setOpenState] = useState(() => readFlag(key) ?? initial);
  const setOpen = useCallback(
    (value: boolean) => {
      setOpenState(value);
      writeFlag(key, value);
    },
    [key],
  );
  useEffect(() => {
    if (!sideMenuOpen && !isMobile) setOpen(false);
  }, [sideMenuOpen, isMobile, setOpen]);
  return { open: open && (sideMenuOpen || isMobile), setOpen };
}
