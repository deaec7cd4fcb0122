import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

/**
 * The sales-demo request of the white-label offer (spec §3, §5, §9). One schema, used by the SPA's form and by
 * `POST /api/demo-requests`, so both sides check the same rules.
 */

/** Spec §9: the message holds at most 200 characters. */
export const DEMO_MESSAGE_MAX = 200;
/** Spec §5: text, @, text, dot, text, no spaces. */
export const DEMO_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Spec §5: a phone number, when present, holds only digits, plus, hyphen, spaces and parentheses. */
export const DEMO_PHONE_PATTERN = /^[0-9+\-\s()]*$/;

/** Upper bounds the spec leaves open; they only keep stored rows sane (docs/adr/0006-demo-requests.md). */
export const DEMO_FIELD_LIMITS = {
  name: 100,
  email: 254,
  company: 200,
  phoneNumber: 40,
  submittedFrom: 2048,
  gclid: 512,
} as const;

/** Why a field fails; the SPA maps each code to a translated message. */
export const demoFieldErrors = ['required', 'invalidEmail', 'invalidPhone', 'tooLong'] as const;
export type DemoFieldError = (typeof demoFieldErrors)[number];

// `abort` keeps the e-mail pattern, quadratic in the length, from ever seeing more than `max` characters: zod
// runs later checks after a failed one, and an anonymous 1 MB address took minutes (issue 16).
const required = (max: number) =>
  z.string().trim().min(1, { error: 'required' }).max(max, { error: 'tooLong', abort: true });
const optionalText = (max: number) => z.string().trim().max(max, { error: 'tooLong' }).default('');

export const demoRequestSchema = z.object({
  firstName: required(DEMO_FIELD_LIMITS.name),
  lastName: required(DEMO_FIELD_LIMITS.name),
  email: required(DEMO_FIELD_LIMITS.email).regex(DEMO_EMAIL_PATTERN, { error: 'invalidEmail' }),
  /** The e-mail of the logged-in user who sent the form, or empty. The API records its own caller instead. */
  loggedInEmail: optionalText(DEMO_FIELD_LIMITS.email),
  company: optionalText(DEMO_FIELD_LIMITS.company),
  phoneNumber: z
    .string()
    .trim()
    .max(DEMO_FIELD_LIMITS.phoneNumber, { error: 'tooLong' })
    .regex(DEMO_PHONE_PATTERN, { error: 'invalidPhone' })
    .default(''),
  /** The page the form was sent from. */
  submittedFrom: optionalText(DEMO_FIELD_LIMITS.submittedFrom),
  // Counted before trimming, as the live counter counts what the user typed.
  message: z.string().max(DEMO_MESSAGE_MAX, { error: 'tooLong' }).trim().default(''),
  /** Google Ads click id, when the visitor came from an ad (spec §7). */
  gclid: optionalText(DEMO_FIELD_LIMITS.gclid),
});
/** What the form sends (every field present after parsing). */
export type DemoRequest = z.output<typeof demoRequestSchema>;
/** What a caller may send (optional fields may be left out). */
export type DemoRequestInput = z.input<typeof demoRequestSchema>;

/** The field of the first failing rule of each field, by field name; empty when the request is valid. */
export function demoRequestErrors(input: unknown): Partial<Record<keyof DemoRequest, DemoFieldError>> {
  const result = demoRequestSchema.safeParse(input);
  if (result.success) return {};
  const errors: Partial<Record<keyof DemoRequest, DemoFieldError>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof DemoRequest | undefined;
    if (!field || errors[field]) continue;
    errors[field] = (demoFieldErrors as readonly string[]).includes(issue.message)
      ? (issue.message as DemoFieldError)
      : 'required';
  }
  return errors;
}

export const demoRequestCreatedSchema = z.object({ id: z.uuid(), createdAt: z.iso.datetime({ offset: true }) });
export type DemoRequestCreated = z.infer<typeof demoRequestCreatedSchema>;

/** A stored request as admins see it. */
export const demoRequestRecordSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  loggedInEmail: z.string(),
  company: z.string(),
  phoneNumber: z.string(),
  submittedFrom: z.string(),
  message: z.string(),
  gclid: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type DemoRequestRecord = z.infer<typeof demoRequestRecordSchema>;

export const MAX_DEMO_REQUEST_PAGE = 200;

export const demoRequestListQuerySchema = z.object({
  ...pageQueryFields({ defaultLimit: 50, maxLimit: MAX_DEMO_REQUEST_PAGE }),
});
export type DemoRequestListQuery = z.infer<typeof demoRequestListQuerySchema>;

export const demoRequestPageSchema = pageSchema(demoRequestRecordSchema);
export type DemoRequestPage = z.infer<typeof demoRequestPageSchema>;
