import { z } from 'zod';

/** Machine-readable codes of every error the portal API answers with. Clients switch on these, never on messages. */
export const errorCodes = [
  'validation_failed',
  'invalid_character',
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
] as const;

export type ErrorCode = (typeof errorCodes)[number] | (string & {});

export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** The message every authenticated call answers to an anonymous caller (spec §6, §8). */
export const NOT_LOGGED_IN_MESSAGE = 'User is not logged in';
