import { type LedgerNoteCode, MAX_TOKEN_BALANCE } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../shared/errors.ts';
import { balanceOutOfRange } from '../../shared/token-balance.ts';
import { balanceAfter } from './billing.policy.ts';
import type { BillingRepo } from './billing.repo.ts';
import type { TokenLedgerTable } from './billing.tables.ts';

export interface LedgerAppend {
  userId: string;
  kind: TokenLedgerTable['kind'];
  /** Positive adds tokens, negative takes them. */
  delta: number;
  /** What caused it; (kind, referenceId) is unique, so appending the same cause twice adds nothing. */
  referenceId?: string;
  note?: string;
  /** The note as a code and its values, for the SPA to word in the reader's language (contract LEDGER_NOTE_CODES). */
  noteCode?: LedgerNoteCode;
  noteParams?: Record<string, string | number>;
  createdBy?: string;
}

export interface LedgerResult {
  /** False when an entry with this kind and referenceId already existed. */
  applied: boolean;
  balance: number;
}

export const insufficientTokens = (balance: number, needed: number) =>
  new AppError(409, 'insufficient_tokens', `Not enough tokens: ${needed} needed, ${balance} available.`);

export type TokenLedger = ReturnType<typeof createTokenLedger>;

/**
 * The append-only token ledger. Every append locks the user's balance row (SELECT … FOR UPDATE), so concurrent
 * purchases, grants and spends on one user run one after another on PostgreSQL; PGlite has one connection and
 * serialises transactions anyway. Pass `trx` to append inside a wider transaction (token activation writes its
 * grant in the same one).
 */
export function createTokenLedger(deps: {
  repo: BillingRepo;
  /** Told of every append in its transaction: the low-balance mail (mail module). */
  notify?: (
    trx: Database,
    change: { userId: string; before: number; after: number; reference: string | null },
  ) => Promise<void>;
}) {
  const { repo } = deps;

  async function appendIn(trx: Database, entry: LedgerAppend): Promise<LedgerResult> {
    if (!Number.isInteger(entry.delta) || entry.delta === 0) throw new RangeError('delta must be a non-zero integer');
    const balance = await repo.lockBalance(entry.userId, trx);
    if (entry.referenceId && (await repo.ledgerEntryExists(entry.kind, entry.referenceId, trx))) {
      return { applied: false, balance };
    }
    const next = balanceAfter(balance, entry.delta);
    if (next === undefined) throw insufficientTokens(balance, -entry.delta);
    if (entry.delta > 0 && next > MAX_TOKEN_BALANCE) throw balanceOutOfRange(next);
    await repo.insertLedgerEntry(
      {
        user_id: entry.userId,
        kind: entry.kind,
        delta: entry.delta,
        balance_after: next,
        reference_id: entry.referenceId ?? null,
        note: entry.note ?? null,
        note_code: entry.noteCode ?? null,
        note_params: entry.noteParams ? JSON.stringify(entry.noteParams) : null,
        created_by: entry.createdBy ?? null,
      },
      trx,
    );
    await repo.setBalance(entry.userId, next, trx);
    await deps.notify?.(trx, {
      userId: entry.userId,
      before: balance,
      after: next,
      reference: entry.referenceId ? `${entry.kind}:${entry.referenceId}` : null,
    });
    return { applied: true, balance: next };
  }

  return {
    append(entry: LedgerAppend, trx?: Database): Promise<LedgerResult> {
      return trx ? appendIn(trx, entry) : repo.transaction((t) => appendIn(t, entry));
    },
    /** Spends tokens (token activation); throws 409 insufficient_tokens and changes nothing when short. */
    spend(
      entry: Pick<LedgerAppend, 'userId' | 'note' | 'noteCode' | 'noteParams'> & {
        amount: number;
        referenceId: string;
      },
      trx?: Database,
    ): Promise<LedgerResult> {
      return this.append(
        {
          userId: entry.userId,
          kind: 'activation_spend',
          delta: -entry.amount,
          referenceId: entry.referenceId,
          note: entry.note,
          ...(entry.noteCode && { noteCode: entry.noteCode, noteParams: entry.noteParams }),
        },
        trx,
      );
    },
    balance(userId: string): Promise<number> {
      return repo.balanceOf(userId);
    },
  };
}
