import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = join(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/**
 * A handler that answers every API call hides the calls a test did not expect (the msw server refuses unhandled
 * requests, tests/unit/setup.ts); each test answers the calls it expects, by path.
 */
it('no SPA test answers every API call with one catch-all handler', () => {
  const catchAll = /http\.(all|get|post|put|patch|delete)\(\s*['"`]\*\/api\/\*['"`]/;
  const offenders = files(join(root, 'tests/unit'))
    .filter((file) => catchAll.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
  expect(offenders).toEqual([]);
});
