import { createBrowserRouter } from 'react-router';
import { heldInviteToken, keepInviteTokenFromUrl } from '../features/organizations/invite-link';
import { setInviteTokenSource } from '../lib/api-token';
import { routes } from './routes';

// Before the router, page-view tracking and Tag Manager first read the address.
keepInviteTokenFromUrl();
setInviteTokenSource(heldInviteToken);

export const router = createBrowserRouter(routes);
