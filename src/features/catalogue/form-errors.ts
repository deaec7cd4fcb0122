import type { z } from 'zod';
import { apiError } from '../../lib/api';

export type FieldErrors = Record<string, string>;

/** The first problem of each field, keyed like the API's `field` (top-level names). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A failed write as the form shows it: next to the field the server named, or above the form. */
export function serverErrors(error: unknown, fallback: string): { fields: FieldErrors; general?: string } {
  const e = apiError(error);
  if (e?.field) return { fields: { [e.field]: e.message } };
  return { fields: {}, general: e?.message ?? fallback };
}

/** Form inputs are strings; empty means "not given". */
export const numberOrUndefined = (value: string) => (value.trim() === '' ? undefined : Number(value));
