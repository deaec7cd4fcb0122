import type { ProductTexts } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { createCatalogueRepo } from '../catalogue/index.ts';
import type { ProductsTable } from './billing.tables.ts';

type SeedProduct = Pick<
  ProductsTable,
  'kind' | 'name' | 'pricing_table' | 'amount' | 'currency' | 'interval' | 'credits_amount' | 'seed_key'
> & {
  description: string;
  attributes: string[];
  /** The Dutch texts a Dutch reader gets (issue 22). */
  nl: ProductTexts;
  best_choice?: boolean;
  /** Subscribers get RINEX without tokens. */
  includes_rinex?: boolean;
  billable?: boolean;
  test_mode?: boolean;
};

const SUBSCRIPTION_ATTRIBUTES = [
  'Real-time RTK corrections over NTRIP',
  'Every station of the network',
  'RINEX post-processing data',
];
const SUBSCRIPTION_ATTRIBUTES_NL = [
  'Realtime RTK-correcties via NTRIP',
  'Elk station van het netwerk',
  'RINEX-data voor nabewerking',
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
    includes_rinex: true,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover'],
    test_mode: true,
    nl: {
      name: 'RTK per week',
      description: 'Zeven dagen correcties voor een korte meting.',
      attributes: [...SUBSCRIPTION_ATTRIBUTES_NL, '1 rover tegelijk'],
    },
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
    includes_rinex: true,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover', 'E-mail support'],
    best_choice: true,
    test_mode: true,
    nl: {
      name: 'RTK per maand',
      description: 'De hele maand correcties, automatisch verlengd.',
      attributes: [...SUBSCRIPTION_ATTRIBUTES_NL, '1 rover tegelijk', 'Ondersteuning per e-mail'],
    },
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
    includes_rinex: true,
    attributes: [...SUBSCRIPTION_ATTRIBUTES, '1 concurrent rover', 'Priority support'],
    test_mode: true,
    nl: {
      name: 'RTK per jaar',
      description: 'Een jaar correcties: twee maanden gratis.',
      attributes: [...SUBSCRIPTION_ATTRIBUTES_NL, '1 rover tegelijk', 'Ondersteuning met voorrang'],
    },
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
    nl: {
      name: 'Partnertoegang',
      description: 'Door een beheerder toegekend aan partners en voor supportzaken.',
      attributes: ['Elk netwerk', 'Toegekend door een beheerder'],
    },
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
    nl: {
      name: '100 tokens',
      description: 'Betaal naar gebruik: activeer dagen op elk netwerk.',
      attributes: ['Verlopen nooit', 'Te gebruiken op elk netwerk'],
    },
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
    nl: {
      name: '500 tokens',
      description: 'Tien procent korting op het kleine pakket.',
      attributes: ['Verlopen nooit', 'Te gebruiken op elk netwerk', '10% voordeel'],
    },
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
    nl: {
      name: '2000 tokens',
      description: 'Voor wagenparken.',
      attributes: ['Verlopen nooit', 'Te gebruiken op elk netwerk', '20% voordeel'],
    },
  },
];

/**
 * Idempotent demo products for the sandbox provider (`npm start`): subscriptions per interval, a manual one and
 * token packs. Subscriptions give access to every network that exists when they are first seeded.
 * Answers how many products it created.
 */
export async function seedDemoProducts(db: Database): Promise<number> {
  const networks = await createCatalogueRepo(db)
    .listNetworks({ publicOnly: false })
    .catch(() => []);
  const networkIds = networks.filter((n) => n.status !== 'retired').map((n) => n.id);
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
        includes_rinex: p.includes_rinex ?? false,
        translations: JSON.stringify({ nl: p.nl }),
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
