import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { readBundle } from './support/bundle';

/**
 * The JavaScript size budget, on the production build the e2e run made (global-setup.ts), in gzip bytes (level 9 of
 * each built file), which are deterministic for a given source, so a failure names what grew and by how much.
 *
 * A page's budget counts its first-visit JavaScript (issue 39): every script a fresh browser fetches for the page
 * until the network is idle, logged out, with no interaction (support/bundle.ts). After a deliberate growth,
 * `SIZE_BUDGET_UPDATE=1 npx vitest run --project e2e tests/e2e/size-budget.e2e.ts` rewrites the chunk budgets with
 * 5 % headroom and the page budgets (see TARGETS); the diff of size-budget.json shows it in review.
 */
const BUDGET_FILE = new URL('./size-budget.json', import.meta.url);
const HEADROOM = 1.05;

interface Budget {
  /** gzip bytes of a page's first-visit JavaScript, by the page's path. */
  firstVisit: Record<string, number>;
  /** gzip bytes per chunk name. */
  chunks: Record<string, number>;
  /** A chunk the budget does not name yet (a new page) may have this many. */
  newChunk: number;
}

/**
 * Issue 39's targets, which size-budget.json holds as the pages' budgets: an update never raises a page's budget
 * above its target or its current budget, whichever is higher.
 */
const TARGETS: Record<string, number> = {
  '/dashboard': 120 * 1024,
  '/marketplace': 160 * 1024,
  '/signup': 160 * 1024,
};

describe('the JavaScript size budget', () => {
  const bundle = readBundle(inject('spaDir'));
  let budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Budget;
  const chunks = bundle.chunks();
  const firstVisits: Record<string, { bytes: number; files: Record<string, number> }> = {};
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
    for (const path of Object.keys(TARGETS)) firstVisits[path] = await bundle.firstVisit(browser, path);
    for (const [path, { bytes, files }] of Object.entries(firstVisits)) {
      console.log(
        `first-visit JavaScript of ${path}: ${bytes} bytes gzip (${(bytes / 1024).toFixed(1)} KiB, target ` +
          `${TARGETS[path]}), ${Object.keys(files).length} files`,
      );
    }
    if (process.env.SIZE_BUDGET_UPDATE) {
      const round = (bytes: number) => Math.ceil((bytes * HEADROOM) / 256) * 256;
      const sorted = Object.entries(chunks).sort(([a], [b]) => a.localeCompare(b));
      budget = {
        firstVisit: Object.fromEntries(
          Object.entries(firstVisits).map(([path, { bytes }]) => [
            path,
            Math.min(round(bytes), Math.max(TARGETS[path] ?? Number.POSITIVE_INFINITY, budget.firstVisit[path] ?? 0)),
          ]),
        ),
        chunks: Object.fromEntries(sorted.map(([name, bytes]) => [name, round(bytes)])),
        newChunk: budget.newChunk,
      };
      writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
    }
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('keeps the first-visit JavaScript of each page within its budget', () => {
    const over = Object.entries(firstVisits)
      .filter(([path, { bytes }]) => bytes > (budget.firstVisit[path] ?? 0))
      .map(
        ([path, { bytes, files }]) =>
          `${path}: ${bytes} bytes gzip, budget ${budget.firstVisit[path]}; ${JSON.stringify(files)}`,
      );
    expect(over, 'first visits over budget').toEqual([]);
  });

  it('keeps every chunk within its budget', () => {
    const over = Object.entries(chunks)
      .filter(([name, bytes]) => bytes > (budget.chunks[name] ?? budget.newChunk))
      .map(
        ([name, bytes]) =>
          `${name}: ${bytes} bytes gzip, budget ${budget.chunks[name] ?? `${budget.newChunk} (a new chunk)`}`,
      );
    expect(over, 'chunks over budget').toEqual([]);
  });
});
