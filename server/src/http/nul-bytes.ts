import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** Where in a value (dotted path, as validation_failed names fields) a string or key holds a NUL; undefined if none. */
function nulPath(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  // Buffers are raw bodies (a photo upload) whose bytes are the data itself.
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return [...path, key];
    const found = nulPath(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

/**
 * PostgreSQL text cannot hold U+0000: a NUL in any parameter would reach the database and fail there as a 500 with
 * the SQL in the log (issue 16). Every route refuses it up front instead, naming the field, before anything runs.
 */
export function registerNulByteGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, where] of PARTS) {
      const path = nulPath(request[part]);
      if (!path) continue;
      const field = path.join('.');
      throw badRequest(
        'invalid_character',
        `Invalid ${where}${field ? ` field '${field}'` : ''}: the NUL character (U+0000) is not allowed.`,
        field || undefined,
      );
    }
  });
}
