/**
 * One factory per entity the SPA tests answer with. Each fixture is parsed with its contract schema, so a test
 * cannot serve the page a shape the server would never send.
 */
import {
  type AccountMountpoint,
  type AdminNtripAccount,
  type AdminSubscription,
  accountMountpointListSchema,
  adminNtripAccountSchema,
  adminSubscriptionSchema,
  type CheckoutSession,
  checkoutSessionSchema,
  type Network,
  type NtripAccount,
  networkSchema,
  ntripAccountSchema,
  type Payment,
  type PaymentMethod,
  type PricingProduct,
  paymentMethodSchema,
  paymentSchema,
  pricingProductSchema,
  type Station,
  type Subscription,
  stationSchema,
  subscriptionSchema,
} from '@portal/contract';
import type { LoggedInUser } from '../../../src/features/auth/auth-context';

/** A signed-in customer, no admin, in no organisation. */
export function fakeUser(overrides: Partial<LoggedInUser> = {}): LoggedInUser {
  return {
    uid: 'u1',
    username: 'Ada Surveyor',
    email: 'ada@example.test',
    teams: [],
    isAdmin: false,
    refetch: async () => undefined,
    getToken: async () => 'token',
    logout: async () => undefined,
    ...overrides,
  };
}

export const user = fakeUser({ username: 'Ann', email: undefined });

export const NETWORK_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_NETWORK_ID = '22222222-2222-4222-8222-222222222222';

export function network(overrides: Partial<Network> = {}): Network {
  return networkSchema.parse({
    id: NETWORK_ID,
    slug: 'nl-rtk',
    name: 'Netherlands RTK',
    description: '',
    operator: 'Op',
    region: 'NL',
    status: 'active',
    isPublic: true,
    tokenPricePerDay: 10,
    referenceFrame: null,
    stationCount: 2,
    onlineStationCount: 2,
    coverage: null,
    translations: {},
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  });
}

export const STATION_ID = '33333333-3333-4333-8333-333333333333';

/** Delft, a station of `network()`, online with no data time. */
export function station(overrides: Partial<Station> = {}): Station {
  return stationSchema.parse({
    id: STATION_ID,
    networkId: NETWORK_ID,
    networkSlug: 'nl-rtk',
    referenceFrame: null,
    mountpoint: 'DELF00NLD',
    identifier: 'Delft',
    country: 'NLD',
    latitude: 52,
    longitude: 4.37,
    heightM: null,
    ecef: null,
    receiver: '',
    antenna: '',
    format: 'RTCM 3.3',
    formatDetails: '',
    navSystem: 'GPS',
    carrier: 2,
    bitrate: 0,
    status: 'online',
    lastDataAt: null,
    integrity: { state: 'ok', reasons: [], excluded: false, override: false, acknowledgedAt: null },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  });
}

export function account(overrides: Partial<NtripAccount> = {}): NtripAccount {
  return ntripAccountSchema.parse({
    id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
    label: 'Tractor 7',
    username: 'rtk-abcd2345',
    enabled: true,
    status: 'active',
    maxConnections: 1,
    rtcmProfile: 'as-sent',
    constellations: null,
    grants: [
      {
        id: 'gggggggg-gggg-4ggg-8ggg-gggggggggggg'.replaceAll('g', 'b'),
        networkId: NETWORK_ID,
        networkSlug: 'nl-rtk',
        networkName: 'Netherlands RTK',
        validFrom: '2026-11-01T00:00:00.000Z',
        validUntil: '2099-01-02T00:00:00.000Z',
        source: 'tokens',
        allAccounts: false,
      },
    ],
    connectedNow: 0,
    lastSeenAt: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  });
}

export function adminAccount(overrides: Partial<AdminNtripAccount> = {}): AdminNtripAccount {
  return adminNtripAccountSchema.parse({
    ...account(),
    ownerUserId: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
    ownerEmail: 'owner@example.test',
    ...overrides,
  });
}

/** The nearest-station mountpoint of the fixture network, then two Dutch stations (Delft and Groningen). */
export const mountpoints: AccountMountpoint[] = accountMountpointListSchema.parse({
  items: [
    {
      mountpoint: 'NL-RTK_NEAR',
      kind: 'near',
      networkSlug: 'nl-rtk',
      networkName: 'Netherlands RTK',
      identifier: '',
      online: true,
      latitude: null,
      longitude: null,
    },
    {
      mountpoint: 'GRON00NLD0',
      kind: 'station',
      networkSlug: 'nl-rtk',
      networkName: 'Netherlands RTK',
      identifier: 'Groningen',
      online: true,
      latitude: 53.2194,
      longitude: 6.5665,
    },
    {
      mountpoint: 'DLFT00NLD0',
      kind: 'station',
      networkSlug: 'nl-rtk',
      networkName: 'Netherlands RTK',
      identifier: 'Delft',
      online: true,
      latitude: 52.0116,
      longitude: 4.3592,
    },
  ],
}).items;

/** A subscription product as a pricing table lists it: RTK Monthly, €49.00. */
export function pricingProduct(overrides: Partial<PricingProduct> = {}): PricingProduct {
  return pricingProductSchema.parse({
    name: 'RTK Monthly',
    description: '',
    priceId: 'price_monthly',
    type: 'Subscription',
    amount: 4900,
    currency: 'EUR',
    interval: 'MONTHLY',
    bestChoice: false,
    attributes: [],
    testMode: false,
    previewMode: false,
    networkIds: [],
    ...overrides,
  });
}

/** The user's own active RTK Monthly subscription, which they may cancel. */
export function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return subscriptionSchema.parse({
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    userId: 'u1',
    organizationId: null,
    productName: 'RTK Monthly',
    priceId: 'price_monthly',
    amount: 4900,
    currency: 'EUR',
    interval: 'MONTHLY',
    billable: true,
    status: 'active',
    networkIds: [],
    currentPeriodStart: '2026-11-01T00:00:00.000Z',
    currentPeriodEnd: '2026-12-01T00:00:00.000Z',
    cancelAtPeriodEnd: false,
    canCancel: true,
    canResume: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    endedAt: null,
    ...overrides,
  });
}

/** A subscription as the admin and organisation lists show it, with its buyer's e-mail. */
export function adminSubscription(overrides: Partial<AdminSubscription> = {}): AdminSubscription {
  return adminSubscriptionSchema.parse({ ...subscription(), userEmail: 'ada@example.test', ...overrides });
}

/** A completed checkout of RTK Monthly, £49.00. */
export function checkoutSession(overrides: Partial<CheckoutSession> = {}): CheckoutSession {
  return checkoutSessionSchema.parse({
    id: '5d8b9a38-2f5c-4bd4-9d53-0d9d6f5c1a11',
    transactionId: 'cs_sbx_42',
    status: 'complete',
    type: 'Subscription',
    productName: 'RTK Monthly',
    priceId: 'price_monthly',
    amount: 4900,
    currency: 'GBP',
    value: 49,
    subscriptionId: 'a1b2c3d4-0000-4000-8000-000000000001',
    createdAt: '2026-11-23T12:00:00.000Z',
    ...overrides,
  });
}

/** The default saved card: a Visa ending in 4242. */
export function paymentMethod(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return paymentMethodSchema.parse({
    id: 'pm_1',
    brand: 'visa',
    last4: '4242',
    expMonth: 12,
    expYear: 2034,
    isDefault: true,
    ...overrides,
  });
}

/** A paid purchase of 100 tokens, €10.00, with its invoice. */
export function payment(overrides: Partial<Payment> = {}): Payment {
  return paymentSchema.parse({
    id: 'p1',
    description: '100 Tokens',
    amount: 1000,
    currency: 'EUR',
    status: 'paid',
    refundedAmount: 0,
    invoiceNumber: 'SBX-2026-1',
    invoiceUrl: 'https://invoices.example/1',
    createdAt: '2026-11-23T12:00:00.000Z',
    ...overrides,
  });
}

/** Token packs as `GET /tokenProducts` lists them: 100 tokens for €10.00 and 2000 for €160.00 (8 ct a token). */
export const tokenTables = [
  {
    name: 'Tokens',
    data: [
      pricingProduct({
        name: '2000 tokens',
        priceId: 'price_tokens_2000',
        type: 'Token',
        amount: 16_000,
        interval: undefined,
        creditsAmount: 2000,
      }),
      pricingProduct({
        name: '100 tokens',
        priceId: 'price_tokens_100',
        type: 'Token',
        amount: 1000,
        interval: undefined,
        creditsAmount: 100,
      }),
    ],
  },
];
