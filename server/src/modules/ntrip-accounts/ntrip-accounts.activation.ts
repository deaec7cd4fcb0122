import { activationPrice, type TokenActivation } from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict, notFound } from '../../shared/errors.ts';
import { type AccountsCore, ShortOfTokens } from './ntrip-accounts.core.ts';
import { canActivateNetwork } from './ntrip-accounts.policy.ts';

/** Activating an account on a network for a number of days, paid in tokens (personal or the organisation's). */
export function createActivation(core: AccountsCore) {
  const { deps, repo, ledger, notify, access, grantDays, grantOf } = core;
  return {
    /**
     * Spec §7 `POST /tokens`: spends price per day × days from the ledger and writes the grant in one transaction.
     * The account row is locked first (then billing locks the balance row), so concurrent activations of one
     * account extend one after another and concurrent spends of one balance never overspend.
     */
    async activate(
      actor: Actor,
      body: { accountId: string; feedNetworkId: string; days: number },
    ): Promise<TokenActivation> {
      let payer: { orgId: string } | null = null;
      const result = await repo
        .transaction(async (trx) => {
          // An organisation's account is paid from the organisation's tokens, by its owners and admins only.
          const { row: account } = await access(actor, body.accountId, 'manage', trx, true);
          payer = account.organization_id ? { orgId: account.organization_id } : null;
          const network = await repo.network(body.feedNetworkId, trx);
          if (!network) throw notFound('Network');
          if (!canActivateNetwork(network)) {
            throw conflict('network_not_activatable', 'This network cannot be activated with tokens.');
          }
          const price = activationPrice(network.token_price_per_day, body.days);
          const { grantId } = await grantDays(account, network.id, body.days, 'tokens', trx);
          let balance: number;
          const note = `${body.days} day${body.days === 1 ? '' : 's'} of ${network.name} for ${account.username}`;
          try {
            if (account.organization_id) {
              if (!deps.organizationLedger) throw new Error('organisation accounts need the organisation ledger');
              ({ balance } = await deps.organizationLedger.spend(
                { orgId: account.organization_id, amount: price, referenceId: grantId, note, createdBy: actor.userId },
                trx,
              ));
            } else {
              ({ balance } = await ledger.spend(
                {
                  userId: actor.userId,
                  amount: price,
                  referenceId: grantId,
                  note,
                  noteCode: 'activation',
                  noteParams: { days: body.days, network: network.name, account: account.username },
                },
                trx,
              ));
            }
          } catch (err) {
            if (err instanceof AppError && err.code === 'insufficient_tokens') throw new ShortOfTokens(price);
            throw err;
          }
          return { account, grantId, price, balance };
        })
        .catch(async (err) => {
          // Rolled back; the balance is read again so the answer says what the caller has now.
          if (!(err instanceof ShortOfTokens)) throw err;
          const orgId = (payer as { orgId: string } | null)?.orgId;
          const balance =
            orgId && deps.organizationLedger
              ? await deps.organizationLedger.balance(orgId)
              : await ledger.balance(actor.userId);
          throw new AppError(
            402,
            'insufficient_tokens',
            `Not enough tokens: ${err.needed} needed, ${balance} available.`,
            undefined,
            {
              needed: err.needed,
              balance,
            },
          );
        });
      await notify(result.account, 'grant');
      return {
        grant: await grantOf(result.account, result.grantId),
        tokensSpent: result.price,
        tokenAmount: result.balance,
      };
    },
  };
}
