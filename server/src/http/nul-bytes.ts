import type { FastifyInstance } from 'fastify';
import { badRequest } from '../shared/errors.ts';
import { MAX_BODY_DEPTH, tooDeep } from './json-body.ts';

interface Frame {
  value: unknown;
  key: string;
  parent: Frame | undefined;
  depth: number;
}

function pathOf(frame: Frame): string[] {
  const path: string[] = [];
  for (let f = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * Where in a value (dotted path, as validation_failed names fields) a string or key holds a NUL; undefined if none.
 * Iterative, each step keeping only a link to its parent, so the walk is linear in the value's size; a value nested
 * past MAX_BODY_DEPTH (only a body another parser built could be) is refused rather than walked.
 */
function nulPath(value: unknown): string[] | undefined {
  const stack: Frame[] = [{ value, key: '', parent: undefined, depth: 0 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.key.includes('\0')) return pathOf(frame);
    const item = frame.value;
    if (typeof item === 'string') {
      if (item.includes('\0')) return pathOf(frame);
      continue;
    }
    // Buffers are raw bodies (a photo upload) whose bytes are the data itself.
    if (item === null || typeof item !== 'object' || Buffer.isBuffer(item)) continue;
    if (frame.depth >= MAX_BODY_DEPTH) throw tooDeep();
    const keys = Object.keys(item);
    // Pushed last to first, so the first field is looked at first and the path named is the first in the body.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ value: (item as Record<string, unknown>)[key], key, parent: frame, depth: frame.depth + 1 });
    }
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
