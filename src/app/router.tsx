import { createBrowserRouter } from 'react-router';
import { keepInviteTokenFromUrl } from '../features/organizations/invite-link';
import { routes } from './routes';

// Before the router, page-view tracking and Tag Manager first read the address.
keepInviteTokenFromUrl();

export const router = createBrowserRouter(routes);
