import type { Team } from '@portal/contract';
import { useSyncExternalStore } from 'react';
import { useUser } from './auth-context';

/**
 * Whose NTRIP accounts and tokens the pages show: the user's own (Personal) or one of their organisations'. Kept for
 * the tab in session storage, so the choice follows the user from page to page and the switcher never has to move
 * them off the page they are on.
 */
const KEY = 'portal.activeOrganization';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return memory;
  }
}
let memory: string | null = null;

export function setActiveOrganization(orgId: string | null): void {
  memory = orgId;
  try {
    if (orgId) sessionStorage.setItem(KEY, orgId);
    else sessionStorage.removeItem(KEY);
  } catch {
    // Without session storage the choice lasts until the page reloads.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The organisation chosen in the switcher, while the user is still a member of it; undefined for Personal. */
export function useActiveOrganization(): Team | undefined {
  const chosen = useSyncExternalStore(subscribe, read, () => null);
  const user = useUser();
  return chosen ? user?.teams?.find((team) => team.id === chosen) : undefined;
}
