import { type Insertable, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/client.ts';
import type {
  BillingDetailsTable,
  InvoiceCountersTable,
  InvoiceLine,
  InvoiceParty,
  InvoicesTable,
  RefundsTable,
  TaxSettingsTable,
} from './invoicing.tables.ts';

/** SQL of billing details, tax settings, invoices and refunds (docs/adr/0029). */
export type InvoicingRepo = ReturnType<typeof createInvoicingRepo>;

export type DetailsOwner = { userId: string } | { organizationId: string };

export interface InvoiceFilter {
  userId?: string;
  kind?: 'invoice' | 'credit_note';
  from?: Date;
  to?: Date;
  q?: string;
}

export interface PaymentFilter {
  status?: 'paid' | 'failed' | 'refunded' | 'partially_refunded';
  from?: Date;
  to?: Date;
  q?: string;
}

const ownerColumn = (owner: DetailsOwner) =>
  'userId' in owner ? (['user_id', owner.userId] as const) : (['organization_id', owner.organizationId] as const);

export function createInvoicingRepo(db: Database) {
  return {
    // --- billing details ---
    async findDetails(owner: DetailsOwner, trx = db) {
      const [column, id] = ownerColumn(owner);
      return trx.selectFrom('billing_details').selectAll().where(column, '=', id).executeTakeFirst();
    },
    async saveDetails(
      owner: DetailsOwner,
      values: Omit<Insertable<BillingDetailsTable>, 'user_id' | 'organization_id'>,
      trx = db,
    ) {
      const [column, id] = ownerColumn(owner);
      const row = { ...values, [column]: id, updated_at: new Date() };
      return trx
        .insertInto('billing_details')
        .values(row)
        .onConflict((oc) => oc.column(column).doUpdateSet({ ...values, updated_at: new Date() }))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Records a confirmed VAT number (null: withdraws the confirmation). */
    async setVatVerification(
      owner: DetailsOwner,
      verification: { number: string; at: Date; source: 'registry' | 'admin'; by: string | null } | null,
      trx: Database,
    ) {
      const [column, id] = ownerColumn(owner);
      return trx
        .updateTable('billing_details')
        .set({
          vat_verified_number: verification?.number ?? null,
          vat_verified_at: verification?.at ?? null,
          vat_verified_source: verification?.source ?? null,
          vat_verified_by: verification?.by ?? null,
        })
        .where(column, '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    // --- tax settings ---
    async taxSettings(trx = db) {
      return trx.selectFrom('tax_settings').selectAll().executeTakeFirstOrThrow();
    },
    async taxRates(trx = db) {
      return trx.selectFrom('tax_rates').select(['country', 'rate_bp']).orderBy('country').execute();
    },
    async saveTaxSettings(
      values: Updateable<TaxSettingsTable>,
      rates: { country: string; rate_bp: number }[],
      trx: Database,
    ) {
      await trx
        .updateTable('tax_settings')
        .set({ ...values, updated_at: new Date() })
        .execute();
      await trx.deleteFrom('tax_rates').execute();
      if (rates.length > 0) await trx.insertInto('tax_rates').values(rates).execute();
    },

    // --- invoices ---
    /**
     * The next number of a series. The upsert takes the counter row's lock until the caller's transaction ends,
     * so concurrent payments queue here and a rolled-back one gives its number back: the series has no gaps.
     */
    async nextSequence(series: string, trx: Database): Promise<number> {
      const row = await sql<Pick<InvoiceCountersTable, 'last_number'>>`
        INSERT INTO invoice_counters (series, last_number) VALUES (${series}, 1)
        ON CONFLICT (series) DO UPDATE SET last_number = invoice_counters.last_number + 1
        RETURNING last_number`.execute(trx);
      const first = row.rows[0];
      if (!first) throw new Error('invoice counter did not answer');
      return Number(first.last_number);
    },
    async invoiceForPayment(paymentId: string, trx = db) {
      return trx
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .where('kind', '=', 'invoice')
        .executeTakeFirst();
    },
    async insertInvoice(
      values: Omit<Insertable<InvoicesTable>, 'seller' | 'buyer' | 'lines'> & {
        seller: InvoiceParty;
        buyer: InvoiceParty;
        lines: InvoiceLine[];
      },
      trx: Database,
    ) {
      return trx
        .insertInto('invoices')
        .values({
          ...values,
          seller: JSON.stringify(values.seller),
          buyer: JSON.stringify(values.buyer),
          lines: JSON.stringify(values.lines),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async findInvoice(id: string) {
      return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async listInvoices(filter: InvoiceFilter, limit = 1000) {
      let query = db.selectFrom('invoices').selectAll().orderBy('issued_at', 'desc').orderBy('number', 'desc');
      if (filter.userId) query = query.where('user_id', '=', filter.userId);
      if (filter.kind) query = query.where('kind', '=', filter.kind);
      if (filter.from) query = query.where('issued_at', '>=', filter.from);
      if (filter.to) query = query.where('issued_at', '<', filter.to);
      if (filter.q) {
        const like = `%${filter.q.toLowerCase()}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(number)`, 'like', like),
            eb(sql`lower(buyer->>'name')`, 'like', like),
            eb(sql`lower(coalesce(buyer->>'email', ''))`, 'like', like),
            eb(sql`lower(coalesce(buyer->>'vatNumber', ''))`, 'like', like),
          ]),
        );
      }
      return query.limit(limit).execute();
    },

    // --- admin payments and refunds ---
    async listPayments(filter: PaymentFilter, limit = 1000) {
      let query = db
        .selectFrom('payments as p')
        .leftJoin('users as u', 'u.id', 'p.user_id')
        .leftJoin('checkout_sessions as c', 'c.id', 'p.checkout_session_id')
        .leftJoin('invoices as i', (join) => join.onRef('i.payment_id', '=', 'p.id').on('i.kind', '=', 'invoice'))
        .selectAll('p')
        .select([
          'u.email as user_email',
          'c.credits_amount',
          'c.kind as checkout_kind',
          'i.number as our_invoice_number',
        ])
        .orderBy('p.created_at', 'desc');
      if (filter.status) query = query.where('p.status', '=', filter.status);
      if (filter.from) query = query.where('p.created_at', '>=', filter.from);
      if (filter.to) query = query.where('p.created_at', '<', filter.to);
      if (filter.q) {
        const like = `%${filter.q.toLowerCase()}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(coalesce(u.email, ''))`, 'like', like),
            eb(sql`lower(p.description)`, 'like', like),
            eb(sql`lower(p.provider_payment_id)`, 'like', like),
            eb(sql`lower(coalesce(i.number, ''))`, 'like', like),
          ]),
        );
      }
      return query.limit(limit).execute();
    },
    async findRefund(provider: string, providerRefundId: string, trx = db) {
      return trx
        .selectFrom('refunds')
        .selectAll()
        .where('provider', '=', provider)
        .where('provider_refund_id', '=', providerRefundId)
        .executeTakeFirst();
    },
    async insertRefund(values: Insertable<RefundsTable>, trx: Database) {
      return trx.insertInto('refunds').values(values).returningAll().executeTakeFirstOrThrow();
    },
    async refundsOf(paymentId: string, trx = db) {
      return trx.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).execute();
    },
    async creditNoteOf(refundId: string, trx = db) {
      return trx.selectFrom('invoices').select('number').where('refund_id', '=', refundId).executeTakeFirst();
    },
  };
}
