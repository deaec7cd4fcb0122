import type * as contract from '@portal/contract';
import type { z } from 'zod';

type Contract = typeof contract;

/** The name of one of the contract's zod schemas (`'networkListSchema'`). */
export type SchemaName = { [K in keyof Contract]: Contract[K] extends z.ZodType ? K : never }[keyof Contract];

/** What the schema of that name gives: the type the portal API's answer has. */
export type Answer<K extends SchemaName> = z.output<Contract[K]>;

/**
 * An API answer, typed by the contract's schema of that name (ADR 0093). The portal server sends its answers through
 * the same schemas (each route's `response` schema is its serializer), so in production the browser takes the shape
 * as typed and downloads neither zod nor the contract's schemas for it: they were 42 KiB gzip of a first visit
 * (issue 39). In development
 * and in the SPA tests (`import.meta.env.DEV`) the answer is parsed, so a handler or fixture that drifts from the
 * contract fails there; the production build drops that branch and its import.
 */
export async function answer<K extends SchemaName>(schema: K, data: unknown): Promise<Answer<K>> {
  if (!import.meta.env.DEV) return data as Answer<K>;
  const schemas: Contract = await import('@portal/contract');
  return (schemas[schema] as z.ZodType).parse(data) as Answer<K>;
}
