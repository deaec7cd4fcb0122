/**
 * The route table (spec §2). One line per page; pages load lazily, each in its own chunk.
 * To put a real page in: `{ path: 'map', element: lazyPage(() => import('../features/catalogue/MapPage'), 'MapPage') },`
 */
import { INVITE_LINK_PATH } from '@portal/contract/invite-link';
import type { ComponentType, ReactElement } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { lazyWithQueries } from '../lib/query-client-slot';
import { RequireAdmin, RequireUser } from './guards';
import { LoginRoute } from './LoginRoute';
import { AppLayout } from './layout/AppLayout';
import { RootLayout } from './RootLayout';
import { RouteErrorBoundary } from './RouterErrorPage';

/** Spec §9: page chunk loading times out at 120 s. */
export const CHUNK_TIMEOUT_MS = 120_000;

function withTimeout<T>(promise: Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Loading the page timed out.')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A lazily loaded route component: the module and the name of its export. */
export function page<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return async () => ({ Component: (await withTimeout(load()))[name] as ComponentType });
}

/**
 * A page's element: its chunk loads when the route is first shown (React.lazy; MainContent's Suspense waits), with
 * React Query beside it (lazyWithQueries).
 */
function lazyPage<M, K extends keyof M>(load: () => Promise<M>, name: K): ReactElement {
  const LazyPage = lazyWithQueries(async () => (await page(load, name)()).Component);
  return <LazyPage />;
}

const notFound = () => import('./NotFoundPage');

export const routes: RouteObject[] = [
  {
    element: (
      <RouteErrorBoundary>
        <RootLayout />
      </RouteErrorBoundary>
    ),
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'login', element: <LoginRoute view="login" /> },
          { path: 'signup', element: <LoginRoute view="signup" /> },
          { path: 'register', element: <LoginRoute view="signup" /> },

          // Public (logged out and logged in)
          // In the first-load chunk, not a chunk of its own (ADR 0039): a logged-out visitor's page on /dashboard,
          // /login, /signup and every personal route (they send such a visitor here), which drew one round trip
          // after the scripts. Its signed-in figures stay lazy, with React Query.
          { path: 'dashboard', element: <DashboardPage /> },
          {
            path: 'marketplace',
            element: lazyPage(() => import('../features/billing/MarketplacePage'), 'MarketplacePage'),
          },
          { path: 'white-label', element: lazyPage(() => import('../features/demo/WhiteLabelPage'), 'WhiteLabelPage') },
          { path: 'help', element: lazyPage(() => import('../features/legal/HelpPage'), 'HelpPage') },
          { path: 'status', element: lazyPage(() => import('../features/status/StatusPage'), 'StatusPage') },
          {
            path: 'legal/:kind',
            element: lazyPage(() => import('../features/legal/LegalDocumentPage'), 'LegalDocumentPage'),
          },
          // An invite's secret link; logged out, the page asks to log in or sign up first.
          {
            path: INVITE_LINK_PATH,
            element: lazyPage(() => import('../features/organizations/AcceptInvitePage'), 'AcceptInvitePage'),
          },

          // Logged in, personal
          {
            element: <RequireUser />,
            children: [
              { path: 'map', element: lazyPage(() => import('../features/catalogue/MapPages'), 'MapPage') },
              {
                path: 'accounts',
                element: lazyPage(() => import('../features/accounts/AccountsPage'), 'AccountsPage'),
              },
              { path: 'credits', element: lazyPage(() => import('../features/billing/CreditsPage'), 'CreditsPage') },
              { path: 'rinex', element: lazyPage(() => import('../features/rinex/RinexPage'), 'RinexPage') },
              {
                path: 'subscriptions',
                element: lazyPage(() => import('../features/billing/SubscriptionsPage'), 'SubscriptionsPage'),
              },
              {
                path: 'settings/organization',
                element: lazyPage(() => import('../features/organizations/OrganizationsPage'), 'OrganizationsPage'),
              },
              {
                path: 'settings/billing',
                element: lazyPage(() => import('../features/billing/BillingSettingsPage'), 'BillingSettingsPage'),
              },
              {
                path: 'settings/:settingsPage?',
                element: lazyPage(() => import('../features/settings/AccountSettingsPage'), 'AccountSettingsPage'),
              },
              { path: 'checkout', element: lazyPage(() => import('../features/billing/CheckoutPage'), 'CheckoutPage') },
            ],
          },

          // Admin (isAdmin); non-admins see Restricted Access
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              { index: true, element: <Navigate to="/admin/map" replace /> },
              { path: 'map', element: lazyPage(() => import('../features/catalogue/MapPages'), 'AdminMapPage') },
              {
                path: 'products/:productsPage?',
                element: lazyPage(() => import('../features/billing/AdminProductsPage'), 'AdminProductsPage'),
              },
              { path: 'feed', element: lazyPage(() => import('../features/catalogue/AdminFeedPage'), 'AdminFeedPage') },
              { path: 'rinex', element: lazyPage(() => import('../features/rinex/AdminRinexPage'), 'AdminRinexPage') },
              {
                path: 'feed/:networkId',
                element: lazyPage(() => import('../features/catalogue/AdminFeedPage'), 'AdminFeedPage'),
              },
              {
                path: 'users',
                element: lazyPage(() => import('../features/customers/AdminUsersPage'), 'AdminUsersPage'),
              },
              {
                path: 'users/:userId',
                element: lazyPage(() => import('../features/customers/CustomerPage'), 'CustomerPage'),
              },
              {
                path: 'demo-requests',
                element: lazyPage(() => import('../features/demo/AdminDemoRequestsPage'), 'AdminDemoRequestsPage'),
              },
              {
                path: 'subscriptions',
                element: lazyPage(() => import('../features/billing/AdminSubscriptionsPage'), 'AdminSubscriptionsPage'),
              },
              {
                path: 'accounts',
                element: lazyPage(() => import('../features/accounts/AdminAccountsPage'), 'AdminAccountsPage'),
              },
              {
                path: 'organizations',
                element: lazyPage(
                  () => import('../features/customers/AdminOrganizationsPage'),
                  'AdminOrganizationsPage',
                ),
              },
              {
                path: 'organizations/:orgId',
                element: lazyPage(() => import('../features/customers/AdminOrganizationPage'), 'AdminOrganizationPage'),
              },
              {
                path: 'networks',
                element: lazyPage(() => import('../features/catalogue/AdminNetworksPage'), 'AdminNetworksPage'),
              },
              {
                path: 'networks/:networkId',
                element: lazyPage(() => import('../features/catalogue/AdminNetworksPage'), 'AdminNetworksPage'),
              },
              { path: 'audit', element: lazyPage(() => import('../features/audit/AdminAuditPage'), 'AdminAuditPage') },
              {
                path: 'outbox',
                element: lazyPage(() => import('../features/mail/AdminOutboxPage'), 'AdminOutboxPage'),
              },
              {
                path: 'settings/payments',
                element: lazyPage(() => import('../features/billing/AdminPaymentsPage'), 'AdminPaymentsPage'),
              },
              {
                path: 'settings/tax-management',
                element: lazyPage(() => import('../features/billing/AdminTaxSettingsPage'), 'AdminTaxSettingsPage'),
              },
              {
                path: 'settings/invoices',
                element: lazyPage(() => import('../features/billing/AdminInvoicesPage'), 'AdminInvoicesPage'),
              },
              {
                path: 'dashboard',
                element: lazyPage(() => import('../features/operator/OperatorDashboardPage'), 'OperatorDashboardPage'),
              },
              {
                path: 'settings/account-management',
                element: lazyPage(
                  () => import('../features/admin-settings/AccountManagementPage'),
                  'AccountManagementPage',
                ),
              },
              {
                path: 'settings/documents',
                element: lazyPage(() => import('../features/admin-settings/DocumentsPage'), 'DocumentsPage'),
              },
              // The settings have no overview page: /admin/settings (the switcher's target from /settings) opens the first.
              { path: 'settings', element: <Navigate to="/admin/settings/payments" replace /> },
              { path: '*', element: lazyPage(notFound, 'NotFoundPage') },
            ],
          },

          { path: '*', element: lazyPage(notFound, 'NotFoundPage') },
        ],
      },
    ],
  },
];
