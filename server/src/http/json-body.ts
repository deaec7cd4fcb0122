import type { FastifyInstance } from 'fastify';
import { AppError } from '../shared/errors.ts';

/**
 * How deep a request value may nest (objects and arrays). The deepest body the API takes is a few levels; this is
 * far beyond any of them and far below what costs anything to walk (issue 31).
 */
export const MAX_BODY_DEPTH = 64;

export const tooDeep = () =>
  new AppError(400, 'too_deep', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text opens more than `limit` objects or arrays inside one another. One pass over the characters,
 * brackets inside strings not counted; it stops at the first level past the limit, so a hostile body costs no more
 * than a few hundred characters of work before it is refused. Malformed text is left to JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON bodies are parsed as Fastify does (secure-json-parse, refusing prototype poisoning), after a linear check of
 * their nesting: a body of a few kilobytes nested thousands deep answers 400 `too_deep` in microseconds instead of
 * costing every later step (validation, the NUL guard) time on the event loop the caster shares.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      done(tooDeep(), undefined);
      return;
    }
    parse(request, text, done);
  });
}
