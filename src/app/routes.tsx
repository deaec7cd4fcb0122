/**
 * The route table (spec §2). One line per page; pages load lazily, each in its own chunk.
 * To put a real page in: `{ path: 'map', lazy: page(() => import('../features/catalogue/MapPage'), 'MapPage') },`
 */
import { INVITE_LINK_PATH } from '@portal/contract/invite-link';
import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RequireAdmin, RequireUser } from './guards';
import { LoginRoute } from './LoginRoute';
import { AppLayout } from './layout/AppLayout';
import { RootLayout } from './RootLayout';
import { RouterErrorPage } from './RouterErrorPage';

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

const placeholders = () => import('./placeholder-pages');

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouterErrorPage />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'login', element: <LoginRoute view="login" /> },
          { path: 'signup', element: <LoginRoute view="signup" /> },
          { path: 'register', element: <LoginRoute view="signup" /> },

          // Public (logged out and logged in)
          { path: 'dashboard', lazy: page(() => import('../features/dashboard/DashboardPage'), 'DashboardPage') },
          { path: 'marketplace', lazy: page(() => import('../features/catalogue/MapPages'), 'MarketplacePage') },
          { path: 'white-label', lazy: page(() => import('../features/demo/WhiteLabelPage'), 'WhiteLabelPage') },
          { path: 'legal/:kind', lazy: page(() => import('../features/legal/LegalDocumentPage'), 'LegalDocumentPage') },
          // An invite's secret link; logged out, the page asks to log in or sign up first.
          {
            path: INVITE_LINK_PATH,
            lazy: page(() => import('../features/organizations/AcceptInvitePage'), 'AcceptInvitePage'),
          },

          // Logged in, personal
          {
            element: <RequireUser />,
            children: [
              { path: 'map', lazy: page(() => import('../features/catalogue/MapPages'), 'MapPage') },
              { path: 'accounts', lazy: page(() => import('../features/accounts/AccountsPage'), 'AccountsPage') },
              { path: 'credits', lazy: page(() => import('../features/billing/CreditsPage'), 'CreditsPage') },
              { path: 'rinex', lazy: page(() => import('../features/rinex/RinexPage'), 'RinexPage') },
              {
                path: 'subscriptions',
                lazy: page(() => import('../features/billing/SubscriptionsPage'), 'SubscriptionsPage'),
              },
              {
                path: 'settings/organization',
                lazy: page(() => import('../features/organizations/OrganizationsPage'), 'OrganizationsPage'),
              },
              {
                path: 'settings/billing',
                lazy: page(() => import('../features/billing/BillingSettingsPage'), 'BillingSettingsPage'),
              },
              {
                path: 'settings/:settingsPage?',
                lazy: page(() => import('../features/settings/AccountSettingsPage'), 'AccountSettingsPage'),
              },
              { path: 'checkout', lazy: page(() => import('../features/billing/CheckoutPage'), 'CheckoutPage') },
            ],
          },

          // Admin (isAdmin); non-admins see Restricted Access
          {
            path: 'admin',
            element: <RequireAdmin />,
            children: [
              { index: true, element: <Navigate to="/admin/map" replace /> },
              { path: 'map', lazy: page(() => import('../features/catalogue/MapPages'), 'AdminMapPage') },
              {
                path: 'products/:productsPage?',
                lazy: page(() => import('../features/billing/AdminProductsPage'), 'AdminProductsPage'),
              },
              { path: 'feed', lazy: page(() => import('../features/catalogue/AdminFeedPage'), 'AdminFeedPage') },
              { path: 'rinex', lazy: page(() => import('../features/rinex/AdminRinexPage'), 'AdminRinexPage') },
              {
                path: 'feed/:networkId',
                lazy: page(() => import('../features/catalogue/AdminFeedPage'), 'AdminFeedPage'),
              },
              { path: 'users', lazy: page(() => import('../features/users/AdminUsersPage'), 'AdminUsersPage') },
              { path: 'users/:userId', lazy: page(() => import('../features/users/CustomerPage'), 'CustomerPage') },
              {
                path: 'demo-requests',
                lazy: page(() => import('../features/demo/AdminDemoRequestsPage'), 'AdminDemoRequestsPage'),
              },
              {
                path: 'subscriptions',
                lazy: page(() => import('../features/billing/AdminSubscriptionsPage'), 'AdminSubscriptionsPage'),
              },
              {
                path: 'accounts',
                lazy: page(() => import('../features/accounts/AdminAccountsPage'), 'AdminAccountsPage'),
              },
              {
                path: 'organizations',
                lazy: page(() => import('../features/organizations/AdminOrganizationsPage'), 'AdminOrganizationsPage'),
              },
              {
                path: 'organizations/:orgId',
                lazy: page(() => import('../features/organizations/AdminOrganizationPage'), 'AdminOrganizationPage'),
              },
              {
                path: 'networks',
                lazy: page(() => import('../features/catalogue/AdminNetworksPage'), 'AdminNetworksPage'),
              },
              {
                path: 'networks/:networkId',
                lazy: page(() => import('../features/catalogue/AdminNetworksPage'), 'AdminNetworksPage'),
              },
              { path: 'audit', lazy: page(() => import('../features/audit/AdminAuditPage'), 'AdminAuditPage') },
              { path: 'outbox', lazy: page(() => import('../features/mail/AdminOutboxPage'), 'AdminOutboxPage') },
              {
                path: 'settings/payments',
                lazy: page(() => import('../features/billing/AdminPaymentsPage'), 'AdminPaymentsPage'),
              },
              {
                path: 'settings/tax-management',
                lazy: page(() => import('../features/billing/AdminTaxSettingsPage'), 'AdminTaxSettingsPage'),
              },
              {
                path: 'settings/invoices',
                lazy: page(() => import('../features/billing/AdminInvoicesPage'), 'AdminInvoicesPage'),
              },
              {
                path: 'dashboard',
                lazy: page(() => import('../features/operator/OperatorDashboardPage'), 'OperatorDashboardPage'),
              },
              {
                path: 'settings/account-management',
                lazy: page(() => import('../features/admin-settings/AccountManagementPage'), 'AccountManagementPage'),
              },
              {
                path: 'settings/documents',
                lazy: page(() => import('../features/admin-settings/DocumentsPage'), 'DocumentsPage'),
              },
              { path: 'settings/:settingsPage?', lazy: page(placeholders, 'AdminSettingsPage') },
              { path: '*', element: <Navigate to="/admin/map" replace /> },
            ],
          },

          { path: '*', element: <Navigate to="/dashboard" replace /> },
        ],
      },
    ],
  },
];
