import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

/** One entry of the operator's audit log (issue 20): who did what to which record, and how it looked before and after. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

export const auditQuerySchema = z
  .object({
    /** The actor's user id, or part of their e-mail address. */
    actor: z.string().trim().min(1).max(100).optional(),
    /** An exact action, or a prefix ending in a dot ("tokens." for every token action). */
    action: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_.-]{0,79}$/, 'lower-case letters, digits, dots, dashes, underscores')
      .optional(),
    targetType: z.string().trim().min(1).max(40).optional(),
    targetId: z.string().trim().min(1).max(100).optional(),
    /** From this moment (or the start of this UTC day) on. */
    from: isoDate.optional(),
    /** Up to this moment (or the end of this UTC day). */
    to: isoDate.optional(),
    ...pageQueryFields({ defaultLimit: 50, maxLimit: 200 }),
  })
  .refine((q) => !q.from || !q.to || auditRangeStart(q.from) <= auditRangeEnd(q.to), {
    message: 'to must not be before from',
    path: ['to'],
  });
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** A date alone means its whole UTC day. */
export function auditRangeStart(value: string): Date {
  return new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value);
}
export function auditRangeEnd(value: string): Date {
  return new Date(value.length === 10 ? `${value}T23:59:59.999Z` : value);
}

export const auditPageSchema = pageSchema(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;
