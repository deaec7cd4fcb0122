import { z } from 'zod';
import type { ApiKeyErrorCode } from './api-keys.ts';
import type { CatalogueErrorCode } from './catalogue.ts';
import type { NtripAccountErrorCode } from './ntrip-accounts.ts';
import type { OrganizationErrorCode } from './organizations.ts';
import type { RinexErrorCode } from './rinex.ts';

/**
 * Machine-readable error codes of the portal API beside the features' own lists (catalogue, NTRIP accounts,
 * organisations, RINEX). Clients switch on codes, never on messages.
 */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'invalid_character',
  // a request value nested deeper than the API takes (issue 31)
  'too_deep',
  'unauthenticated',
  'forbidden',
  'account_disabled',
  'not_found',
  'conflict',
  'rate_limited',
  'payload_too_large',
  'unsupported_image',
  'recent_login_required',
  'email_not_verified',
  'payment_provider_unavailable',
  'internal',
  'terms_not_accepted',
  'terms_changed',
  // billing
  'already_subscribed',
  'product_not_found',
  'invalid_transition',
  'invalid_signature',
  'not_refundable',
  // a token balance would pass MAX_TOKEN_BALANCE
  'out_of_range',
  'refund_failed',
  // payments closed until the seller's details and tax rates are set; a VAT number changed under an admin's check
  'payments_not_configured',
  'vat_number_changed',
  // the sandbox provider's card form (docs/adr/0031): a refused card, and a session or SetupIntent already used
  'card_declined',
  'invalid_card',
  'card_expired',
  'not_open',
  // organisations: membership and invitations
  'already_invited',
  'already_member',
  'already_owner',
  'cannot_change_self',
  'last_owner',
  'sole_organization_owner',
  'name_mismatch',
  'organization_disabled',
  'invite_expired',
  'invite_revoked',
  'invite_not_open',
  'invite_link_invalid',
  // sign-up by invitation only (docs/adr/0033)
  'sign_up_invite_only',
] as const;

/**
 * Every code the API answers with: the general ones above and each feature's own list. The server's AppError takes
 * only these, so a new code is added here (or to its feature's list) before it can be sent.
 */
export type ErrorCode =
  | (typeof errorCodes)[number]
  | ApiKeyErrorCode
  | CatalogueErrorCode
  | NtripAccountErrorCode
  | OrganizationErrorCode
  | RinexErrorCode;

export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** The message every authenticated call answers to an anonymous caller (spec §6, §8). */
export const NOT_LOGGED_IN_MESSAGE = 'User is not logged in';
