import type { TFunction } from 'i18next';
import type { z } from 'zod';

/** Per field (dotted path, and its top-level name), the translated text of its first problem. */
export type FieldErrors = Record<string, string>;

const valueAt = (body: unknown, path: readonly PropertyKey[]) =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );

const empty = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Why a value failed, as a key of `common:form.validation`, with the numbers its text needs. Zod's own messages are
 * English prose; the issue's code and bounds are what a translation can be built from.
 */
export function issueReason(
  issue: z.core.$ZodIssue,
  body: unknown,
): { reason: string; params: Record<string, unknown> } {
  const value = valueAt(body, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (empty(value)) return { reason: 'required', params: {} };
      if (issue.expected === 'int') return { reason: 'integer', params: {} };
      if (issue.expected === 'number') return { reason: 'number', params: {} };
      return { reason: 'invalid', params: {} };
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') return { reason: minimum <= 1 ? 'required' : 'tooShort', params: { minimum } };
      if (issue.origin === 'array' || issue.origin === 'set') {
        return { reason: minimum <= 1 ? 'required' : 'tooFew', params: { minimum } };
      }
      return { reason: issue.inclusive === false ? 'above' : 'atLeast', params: { minimum } };
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return { reason: 'tooLong', params: { maximum } };
      if (issue.origin === 'array' || issue.origin === 'set') return { reason: 'tooMany', params: { maximum } };
      return { reason: issue.inclusive === false ? 'below' : 'atMost', params: { maximum } };
    }
    case 'invalid_format':
      if (empty(value)) return { reason: 'required', params: {} };
      return { reason: issue.format === 'email' ? 'email' : issue.format === 'url' ? 'url' : 'format', params: {} };
    case 'invalid_value':
      return { reason: empty(value) ? 'required' : 'choice', params: {} };
    case 'not_multiple_of':
      return { reason: 'multipleOf', params: { divisor: Number(issue.divisor) } };
    default:
      return { reason: 'invalid', params: {} };
  }
}

/**
 * The translated text of one issue. The form's own keys come first, so a form keeps the exact text a spec or a
 * design gave it: `<ns>:<prefix>.<field>.<reason>`, then `<ns>:<prefix>.<field>` (prefix `validation` unless the
 * form says otherwise), then the issue's message read as a key (a contract schema may name its problem, e.g. demo's
 * `tooLong`, looked up under the prefix and as a full key); last the general text of `common:form.validation.<reason>`.
 */
export function issueText(
  t: TFunction,
  issue: z.core.$ZodIssue,
  body: unknown,
  ns?: string,
  prefix = 'validation',
): string {
  const { reason, params } = issueReason(issue, body);
  const field = issue.path.map(String).join('.');
  const own = ns ? [`${ns}:${prefix}.${field}.${reason}`, `${ns}:${prefix}.${field}`] : [];
  const named = /^[\w.:-]+$/.test(issue.message)
    ? [...(ns ? [`${ns}:${prefix}.${issue.message}`, `${ns}:${issue.message}`] : []), issue.message]
    : [];
  return t([...(field ? own : []), ...named, `common:form.validation.${reason}`], params);
}

/** The first problem of each field, by dotted path and also by top-level name (what a flat form shows). */
export function fieldErrors(t: TFunction, error: z.ZodError, body: unknown, ns?: string, prefix?: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const text = issueText(t, issue, body, ns, prefix);
    const path = issue.path.map(String);
    for (let depth = path.length; depth >= 1; depth--) errors[path.slice(0, depth).join('.')] ??= text;
    if (path.length === 0) errors[''] ??= text;
  }
  return errors;
}
