import type { IconName } from '../components/Icon';

/** Spec §2: the account page URL; billing lives at {ACCOUNT_PAGE_URL}/billing. */
export const ACCOUNT_PAGE_URL = '/settings';
/** The organisations page: the user's organisations, their members, invitations, tokens and subscriptions. */
export const ORGANIZATIONS_URL = '/settings/organization';
/** The portal's help page: the brand's support contact and the legal documents. */
export const HELP_URL = '/help';
/** The brand's documentation outside the portal, when the build names one (checked by vite.config.ts). */
export const DOCS_URL = import.meta.env.VITE_DOCS_URL || '';

export const ADMIN_SETTINGS_PAGE_NAMES = [
  'payments',
  'account-management',
  'tax-management',
  'documents',
  'invoices',
] as const;
export const ADMIN_PRODUCTS_PAGE_NAMES = ['billable-subscriptions', 'credits', 'non-billable-subscriptions'] as const;

export interface SubmenuItem {
  /** i18n key */
  name: string;
  url: string;
  isActive?: boolean;
}

interface EntryBase {
  /** i18n key; also the stable part of the submenu storage key */
  name: string;
  url: string;
  icon: IconName;
  newTab?: boolean;
}

export type MenuEntry =
  | (EntryBase & { type: 'link' })
  | (EntryBase & { type: 'submenu'; items: SubmenuItem[] })
  | (EntryBase & { type: 'quicklinks'; items: SubmenuItem[] });

/** Personal side menu (spec §2). */
export const personalMenu: MenuEntry[] = [
  { type: 'link', name: 'navigation.dashboard', url: '/dashboard', icon: 'dashboard' },
  { type: 'link', name: 'navigation.networkCoverage', url: '/marketplace', icon: 'globe' },
  { type: 'link', name: 'navigation.map', url: '/map', icon: 'map' },
  {
    type: 'submenu',
    name: 'navigation.networkAccess',
    url: '/accounts',
    icon: 'antenna',
    items: [
      { name: 'navigation.ntripAccounts', url: '/accounts' },
      { name: 'navigation.subscriptions', url: '/subscriptions' },
      { name: 'navigation.credits', url: '/credits' },
      { name: 'navigation.rinex', url: '/rinex' },
    ],
  },
  { type: 'link', name: 'navigation.organizations', url: ORGANIZATIONS_URL, icon: 'users' },
  {
    type: 'submenu',
    name: 'navigation.settings',
    url: ACCOUNT_PAGE_URL,
    icon: 'settings',
    items: [{ name: 'navigation.billing', url: `${ACCOUNT_PAGE_URL}/billing` }],
  },
  {
    type: 'quicklinks',
    name: 'navigation.quickLinks',
    url: '/subscriptions',
    icon: 'zap',
    items: [
      { name: 'navigation.quick.buySubscriptions', url: '/subscriptions' },
      { name: 'navigation.quick.buyCredits', url: '/credits' },
      { name: 'navigation.quick.createNtripAccounts', url: '/accounts' },
      { name: 'navigation.quick.viewNetworks', url: '/marketplace' },
    ],
  },
];

/** Admin side menu (spec §2), with the operator dashboard first (issue 20). */
export const adminMenu: MenuEntry[] = [
  { type: 'link', name: 'navigation.operatorDashboard', url: '/admin/dashboard', icon: 'dashboard' },
  {
    type: 'submenu',
    name: 'navigation.networkManagement',
    url: '/admin/networks',
    icon: 'satellite',
    items: [
      { name: 'navigation.templates', url: '/admin/networks' },
      { name: 'navigation.feed', url: '/admin/feed' },
      { name: 'navigation.rinexArchive', url: '/admin/rinex' },
    ],
  },
  {
    type: 'submenu',
    name: 'navigation.networkAccess',
    url: '/admin/accounts',
    icon: 'antenna',
    items: [
      { name: 'navigation.accounts', url: '/admin/accounts' },
      { name: 'navigation.subscriptions', url: '/admin/subscriptions' },
    ],
  },
  {
    type: 'submenu',
    name: 'navigation.products',
    url: '/admin/products',
    icon: 'box',
    items: [
      { name: 'navigation.productsPages.billable', url: '/admin/products/billable-subscriptions' },
      { name: 'navigation.productsPages.credits', url: '/admin/products/credits' },
      { name: 'navigation.productsPages.nonBillable', url: '/admin/products/non-billable-subscriptions' },
    ],
  },
  { type: 'link', name: 'navigation.map', url: '/admin/map', icon: 'map' },
  { type: 'link', name: 'navigation.users', url: '/admin/users', icon: 'users' },
  { type: 'link', name: 'navigation.adminOrganizations', url: '/admin/organizations', icon: 'building' },
  { type: 'link', name: 'navigation.demoRequests', url: '/admin/demo-requests', icon: 'sparkle' },
  { type: 'link', name: 'navigation.audit', url: '/admin/audit', icon: 'receipt' },
  { type: 'link', name: 'navigation.outbox', url: '/admin/outbox', icon: 'mail' },
  {
    type: 'submenu',
    name: 'navigation.settings',
    url: '/admin/settings',
    icon: 'settings',
    items: ADMIN_SETTINGS_PAGE_NAMES.map((page) => ({
      name: `navigation.adminSettings.${page}`,
      url: `/admin/settings/${page}`,
    })),
  },
  {
    type: 'quicklinks',
    name: 'navigation.quickLinks',
    url: '/admin/products',
    icon: 'zap',
    items: [
      { name: 'navigation.quick.createProducts', url: '/admin/products/billable-subscriptions' },
      { name: 'navigation.quick.createNtripAccounts', url: '/admin/accounts' },
      { name: 'navigation.quick.networkManagement', url: '/admin/networks' },
    ],
  },
];

/** Marks the submenu items whose url equals the current path. */
export function withActive(items: SubmenuItem[], pathname: string): SubmenuItem[] {
  return items.map((item) => ({ ...item, isActive: item.url === pathname }));
}

export const isAdminPath = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/');

/** The Admin/Personal switcher keeps the current page name: /admin/map ⇄ /map (unknown pages then redirect). */
export function switchProfilePath(pathname: string): string {
  if (isAdminPath(pathname)) return pathname.replace(/^\/admin/, '') || '/dashboard';
  return `/admin${pathname === '/' ? '/map' : pathname}`;
}
