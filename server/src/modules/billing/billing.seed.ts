import type { Database } from '../../db/client.ts';
import type { ProductsTable } from './billing.tables.ts';

type SeedProduct = Pick<
  ProductsTable,
  'kind' | 'name' | 'pricing_table' | 'amount' | 'currency' | 'interval' | 'credits_amount' | 'seed_key'
> & { description: string; attributes: string[]; best_choice?: boolean; billable?: boolean; test_mode?: boolean };

const SUBSCRIPTION_ATTRIBUTES = [
  'Real-time RTK corrections over NTRIP',
  'Every station of the network',
  'RINEX post-processing data',
];

export const DEMO_PRODUCTS: SeedProduct[] = [
  {
    seed_key: 'demo-sub-weekly',
    kind: 'subscription',
    name: 'RTK Weekly',
    description: 'Seven days of corrections for a short survey.',
    pricing_table: 'RTK Network Access',
    amount: 1_499,
    currency: 'EUR',
    interval: 'WEEKLY',
    credits_amount: null,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover'],
    test_mode: true,
  },
  {
    seed_key: 'demo-sub-monthly',
    kind: 'subscription',
    name: 'RTK Monthly',
    description: 'Corrections all month, renewed automatically.',
    pricing_table: 'RTK Network Access',
    amount: 4_900,
    currency: 'EUR',
    interval: 'MONTHLY',
    credits_amount: null,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover', 'E-mail support'],
    best_choice: true,
    test_mode: true,
  },
  {
    seed_key: 'demo-sub-yearly',
    kind: 'subscription',
    name: 'RTK Yearly',
    description: 'A year of corrections: two months free.',
    pricing_table: 'RTK Network Access',
    amount: 49_000,
    currency: 'EUR',
    interval: 'YEARLY',
    credits_amount: null,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover', 'Priority support'],
    test_mode: true,
  },
  {
    seed_key: 'demo-sub-partner',
    kind: 'subscription',
    name: 'Partner Access',
    description: 'Granted by an administrator to partners and support cases.',
    pricing_table: 'Manual',
    amount: 0,
    currency: 'EUR',
    interval: 'MONTHLY',
    credits_amount: null,
    attributes: ['Every network', 'Assigned by an administrator'],
    billable: false,
  },
  {
    seed_key: 'demo-tokens-100',
    kind: 'token',
    name: '100 Tokens',
    description: 'Pay as you go: activate days on any network.',
    pricing_table: 'Tokens',
    amount: 1_000,
    currency: 'EUR',
    interval: null,
    credits_amount: 100,
    attributes: ['Never expire', 'Use on any network'],
    test_mode: true,
  },
  {
    seed_key: 'demo-tokens-500',
    kind: 'token',
    name: '500 Tokens',
    description: 'Ten percent off the small pack.',
    pricing_table: 'Tokens',
    amount: 4_500,
    currency: 'EUR',
    interval: null,
    credits_amount: 500,
    attributes: ['Never expire', 'Use on any network', '10% saving'],
    best_choice: true,
    test_mode: true,
  },
  {
    seed_key: 'demo-tokens-2000',
    kind: 'token',
    name: '2000 Tokens',
    description: 'For fleets.',
    pricing_table: 'Tokens',
    amount: 16_000,
    currency: 'EUR',
    interval: null,
    credits_amount: 2_000,
    attributes: ['Never expire', 'Use on any network', '20% saving'],
    test_mode: true,
  },
];

/**
 * Idempotent demo products for the sandbox provider (`npm start`): subscriptions per interval, a manual one and
 * token packs. Subscriptions give access to every network that exists when they are first seeded.
 * Answers how many products it created.
 */
export async function seedDemoProducts(db: Database): Promise<number> {
  const networks = await db
    .selectFrom('networks')
    .select('id')
    .where('status', '<>', 'retired')
    .execute()
    .catch(() => [] as { id: string }[]);
  const networkIds = networks.map((n) => n.id);
  let created = 0;
  for (const p of DEMO_PRODUCTS) {
    const billable = p.billable ?? true;
    const key = p.seed_key ?? p.name;
    const result = await db
      .insertInto('products')
      .values({
        kind: p.kind,
        name: p.name,
        description: p.description,
        pricing_table: p.pricing_table,
        price_id: billable ? `price_sbx_${key}` : `manual_${key}`,
        provider: 'sandbox',
        amount: p.amount,
        currency: p.currency,
        interval: p.interval,
        credits_amount: p.credits_amount,
        billable,
        best_choice: p.best_choice ?? false,
        test_mode: p.test_mode ?? false,
        attributes: p.attributes,
        network_ids: p.kind === 'subscription' ? networkIds : [],
        seed_key: key,
      })
      .onConflict((oc) => oc.column('seed_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (result) created += 1;
  }
  return created;
}
