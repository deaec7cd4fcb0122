import { INVITE_LINK_PATH } from '@portal/contract/invite-link';

const STORAGE_KEY = 'portal.inviteToken';
const TOKEN_PARAM = 'token';

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * An invite link's token is a secret that joins an organisation. Page-view tracking and Tag Manager read the address
 * bar, so on arrival the token moves into this tab's session storage, where it also outlives the log-in or sign-up
 * the visitor may need first. Without session storage it stays in the address, which still works.
 * Runs before the router and analytics start.
 */
export function keepInviteTokenFromUrl(location: Location = window.location, history: History = window.history) {
  if (location.pathname !== INVITE_LINK_PATH) return;
  const params = new URLSearchParams(location.search);
  const token = params.get(TOKEN_PARAM);
  if (!token) return;
  const store = storage();
  if (!store) return;
  try {
    store.setItem(STORAGE_KEY, token);
  } catch {
    return;
  }
  params.delete(TOKEN_PARAM);
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

/** The token of the invite link this tab was opened with: from the address if it is still there, else the kept one. */
export function inviteTokenFrom(search: URLSearchParams): string | undefined {
  return search.get(TOKEN_PARAM) || storage()?.getItem(STORAGE_KEY) || undefined;
}

/**
 * The invite link this tab holds, for the API client's header: in the address while on the invite page, else the
 * kept one. Another page's `token` parameter is not an invite's.
 */
export function heldInviteToken(location: Location = window.location): string | undefined {
  const inAddress =
    location.pathname === INVITE_LINK_PATH ? new URLSearchParams(location.search).get(TOKEN_PARAM) : null;
  return inAddress || storage()?.getItem(STORAGE_KEY) || undefined;
}

/** Once the link has been used (or turned out dead) this tab stops offering it. */
export function forgetInviteToken() {
  try {
    storage()?.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}
