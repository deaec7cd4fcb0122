import { randomUUID } from 'node:crypto';
import type { CreateProduct, Product, UpdateProduct } from '@portal/contract';
import { AppError } from '../../shared/errors.ts';
import { toProduct } from './billing.presenters.ts';
import type { BillingRepo } from './billing.repo.ts';
import type { PaymentProvider } from './providers/provider.ts';

export const productNotFound = () =>
  new AppError(404, 'product_not_found', 'This product does not exist or is not for sale.');

/** The operator's product catalogue; each billable product has its price at the provider, kept in step here. */
export function createProductAdmin(deps: { repo: BillingRepo; provider: PaymentProvider; clock: () => Date }) {
  const { repo, provider, clock } = deps;

  return {
    async product(productId: string): Promise<Product | null> {
      const row = await repo.findProductById(productId);
      return row ? toProduct(row) : null;
    },

    async listProducts(filter: { kind?: 'subscription' | 'token'; billable?: boolean; includeArchived?: boolean }) {
      return (await repo.listProducts(filter)).map(toProduct);
    },

    async createProduct(input: CreateProduct, seedKey?: string): Promise<Product> {
      const id = randomUUID();
      const interval = input.kind === 'subscription' ? input.interval : null;
      const billable = input.kind === 'subscription' ? input.billable : true;
      // Manual subscriptions are never sold, so they have no provider price; their priceId is ours.
      const price = billable
        ? await provider.createPrice({
            productId: id,
            name: input.name,
            description: input.description,
            amount: input.amount,
            currency: input.currency,
            interval,
          })
        : { priceId: `manual_${id}`, providerProductId: null };
      const row = await repo.insertProduct({
        id,
        kind: input.kind,
        name: input.name,
        description: input.description,
        pricing_table: input.pricingTable,
        price_id: price.priceId,
        provider: provider.name,
        provider_product_id: price.providerProductId,
        amount: input.amount,
        currency: input.currency,
        interval,
        credits_amount: input.kind === 'token' ? input.creditsAmount : null,
        billable,
        best_choice: input.bestChoice,
        test_mode: input.testMode,
        preview_mode: input.previewMode,
        attributes: input.attributes,
        includes_rinex: input.kind === 'subscription' && input.includesRinex,
        network_ids: input.networkIds,
        translations: JSON.stringify(input.translations),
        seed_key: seedKey ?? null,
      });
      return toProduct(row);
    },

    async updateProduct(productId: string, patch: UpdateProduct): Promise<Product> {
      const current = await repo.findProductById(productId);
      if (!current) throw productNotFound();
      if (patch.interval && current.kind !== 'subscription') {
        throw new AppError(400, 'validation_failed', 'Only subscriptions have an interval.', 'interval');
      }
      if (patch.includesRinex && current.kind !== 'subscription') {
        throw new AppError(400, 'validation_failed', 'Only subscriptions include RINEX.', 'includesRinex');
      }
      if (patch.creditsAmount && current.kind !== 'token') {
        throw new AppError(400, 'validation_failed', 'Only token packs have a credits amount.', 'creditsAmount');
      }
      const amount = patch.amount ?? current.amount;
      const currency = patch.currency ?? current.currency;
      const interval = patch.interval ?? current.interval;
      const priceChanged = amount !== current.amount || currency !== current.currency || interval !== current.interval;
      let priceId = current.price_id;
      let providerProductId = current.provider_product_id;
      if (priceChanged && current.billable) {
        // Provider prices are immutable: a new price replaces the old one, whose subscribers keep paying it.
        const price = await provider.createPrice({
          productId,
          name: patch.name ?? current.name,
          description: patch.description ?? current.description,
          amount,
          currency,
          interval,
        });
        await provider.archivePrice(current.price_id);
        priceId = price.priceId;
        providerProductId = price.providerProductId;
      }
      const row = await repo.updateProduct(productId, {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.description !== undefined && { description: patch.description }),
        ...(patch.pricingTable !== undefined && { pricing_table: patch.pricingTable }),
        ...(patch.bestChoice !== undefined && { best_choice: patch.bestChoice }),
        ...(patch.testMode !== undefined && { test_mode: patch.testMode }),
        ...(patch.previewMode !== undefined && { preview_mode: patch.previewMode }),
        ...(patch.attributes !== undefined && { attributes: patch.attributes }),
        ...(patch.includesRinex !== undefined && { includes_rinex: patch.includesRinex }),
        ...(patch.networkIds !== undefined && { network_ids: patch.networkIds }),
        ...(patch.translations !== undefined && { translations: JSON.stringify(patch.translations) }),
        ...(patch.creditsAmount !== undefined && { credits_amount: patch.creditsAmount }),
        amount,
        currency,
        interval,
        price_id: priceId,
        provider_product_id: providerProductId,
      });
      if (!row) throw productNotFound();
      return toProduct(row);
    },

    async archiveProduct(productId: string): Promise<Product> {
      const current = await repo.findProductById(productId);
      if (!current) throw productNotFound();
      if (current.archived_at) return toProduct(current);
      if (current.billable && current.provider === provider.name) await provider.archivePrice(current.price_id);
      const row = await repo.updateProduct(productId, { archived_at: clock() });
      if (!row) throw productNotFound();
      return toProduct(row);
    },
  };
}
