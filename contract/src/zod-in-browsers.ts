import { z } from 'zod';

/**
 * In a browser, zod's compiled parsers would first probe `new Function`, which the SPA's Content Security Policy
 * (no 'unsafe-eval') refuses and Chrome reports as a policy violation on every page that parses an answer. The
 * interpreted parsers are plenty fast for API answers; the server keeps the compiled ones. Must run before any
 * schema is made: index.ts imports it first.
 */
if ('window' in globalThis) z.config({ jitless: true });
