import { useRoutes } from 'react-router';
import { heldInviteToken, keepInviteTokenFromUrl } from '../features/organizations/invite-link';
import { setInviteTokenSource } from '../lib/api-token';
import { routes } from './routes';

// Before the router, page-view tracking and Tag Manager first read the address.
keepInviteTokenFromUrl();
setInviteTokenSource(heldInviteToken);

/**
 * The route table under the declarative router (<BrowserRouter> in start.tsx): the data router
 * (createBrowserRouter) brought 30 KiB gzip of loaders, actions and fetchers into every first load, none of which
 * the portal uses (ADR 0030).
 */
export function AppRoutes() {
  return useRoutes(routes);
}
