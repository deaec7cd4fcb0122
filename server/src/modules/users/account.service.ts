import { createHash } from 'node:crypto';
import {
  ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS,
  USER_PHOTO_MAX_BYTES,
  USER_PHOTO_TYPES,
  type UserPhotoType,
} from '@portal/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict } from '../../shared/errors.ts';
import type { IdentityVerifier } from '../../shared/identity.ts';
import { providerUnavailable } from '../billing/index.ts';
import type { AccountRepo } from './account.repo.ts';

/** The file signature each accepted type must start with: the declared type alone is not trusted. */
export function sniffImageType(bytes: Uint8Array): UserPhotoType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return undefined;
}

export const unsupportedImage = () =>
  new AppError(
    415,
    'unsupported_image',
    `Upload a PNG, JPEG, WebP or GIF image of at most ${USER_PHOTO_MAX_BYTES / 1024} KB.`,
  );

/** What account deletion needs from billing: the subscriptions the leaving user pays for, ended at the provider. */
export interface PayerSubscriptions {
  endSubscriptionsPaidBy(userId: string): Promise<void>;
}

export function createAccountService(deps: {
  repo: AccountRepo;
  identity: Pick<IdentityVerifier, 'deleteAccount'>;
  billing: PayerSubscriptions;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  /** The organisations to delete with the account (the caller is their only member); throws for a sole owner. */
  async function organizationsToDelete(userId: string, trx?: Transaction<DB>) {
    const alone: string[] = [];
    for (const org of await deps.repo.ownedOrganizations(userId, trx)) {
      if (Number(org.otherMembers) === 0) {
        alone.push(org.id);
      } else if (Number(org.otherOwners) === 0) {
        throw conflict(
          'sole_organization_owner',
          `You are the only owner of ${org.name}. Make another member an owner before deleting your account.`,
        );
      }
    }
    return alone;
  }

  return {
    /** Stores the caller's photo and answers the address it is served at (photoBase + user id + version). */
    async setPhoto(actor: Actor, contentType: string, bytes: Uint8Array, photoBase: string) {
      const declared = contentType.split(';')[0]?.trim().toLowerCase();
      if (
        !(USER_PHOTO_TYPES as readonly string[]).includes(declared ?? '') ||
        bytes.byteLength === 0 ||
        bytes.byteLength > USER_PHOTO_MAX_BYTES ||
        sniffImageType(bytes) !== declared
      ) {
        throw unsupportedImage();
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const photoUrl = `${photoBase}/users/${actor.userId}/photo?v=${sha256.slice(0, 12)}`;
      await deps.repo.savePhoto({ userId: actor.userId, contentType: declared as string, bytes, sha256, photoUrl });
      return { photoURL: photoUrl };
    },

    removePhoto: (actor: Actor) => deps.repo.removePhoto(actor.userId),

    photo: (userId: string) => deps.repo.findPhoto(userId),

    /**
     * Deletes the caller's account: refuses a sign-in older than five minutes (a stolen token alone must not
     * erase an account) and a sole owner of an organisation others belong to; ends the subscriptions the caller
     * pays for at the payment provider; deletes organisations only the caller is in; anonymises the rest; deletes
     * the Firebase account. The provider cannot join a database transaction, so its calls come first and a
     * failure there (502) leaves the account as it was. The Firebase call runs inside the transaction, so its
     * failure leaves the data untouched.
     */
    async deleteAccount(actor: Actor) {
      const age = actor.authTime === undefined ? Number.POSITIVE_INFINITY : now().getTime() / 1000 - actor.authTime;
      if (age > ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS) {
        throw new AppError(403, 'recent_login_required', 'Please sign in again before deleting your account.');
      }
      if (!deps.identity.deleteAccount) throw new AppError(501, 'internal', 'Account deletion is not available.');
      // Checked before the provider is called, so a refused deletion has ended nothing.
      await organizationsToDelete(actor.userId);
      try {
        await deps.billing.endSubscriptionsPaidBy(actor.userId);
      } catch (err) {
        if (err instanceof AppError && err.code === 'payment_provider_unavailable') {
          throw providerUnavailable(
            'Your subscriptions could not be cancelled at the payment provider, so your account was not deleted. Please try again later.',
          );
        }
        throw err;
      }
      await deps.repo.transaction(async (trx) => {
        for (const id of await organizationsToDelete(actor.userId, trx)) {
          await deps.repo.deleteOrganization(id, trx);
        }
        await deps.repo.anonymise(actor.userId, trx);
        await deps.identity.deleteAccount?.(actor.uid);
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
