import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { readBundle } from './support/bundle';

/**
 * The JavaScript size budget, on the production build the e2e run made (global-setup.ts): gzip bytes, which are
 * deterministic for a given source, so a failure names the chunk that grew and by how much. After a deliberate
 * growth, `SIZE_BUDGET_UPDATE=1 npx vitest run --project e2e tests/e2e/size-budget.e2e.ts` rewrites the budget
 * with 5 % headroom; the diff of size-budget.json shows the growth in review.
 */
const BUDGET_FILE = new URL('./size-budget.json', import.meta.url);
const HEADROOM = 1.05;

interface Budget {
  /** gzip bytes a first visit of a page loads, by the page's module. */
  firstLoad: Record<string, number>;
  /** gzip bytes per chunk name. */
  chunks: Record<string, number>;
  /** A chunk the budget does not name yet (a new page) may have this many. */
  newChunk: number;
}

const FIRST_LOADS = {
  // The issue's target: a logged-out visitor's /dashboard.
  dashboard: 'src/features/dashboard/DashboardPage.tsx',
  marketplace: 'src/features/catalogue/MapPages.tsx',
};

/** Issue 22's target, which an update never raises the budget above: 120 KiB gzip for the logged-out /dashboard. */
const TARGETS: Record<string, number> = { dashboard: 120 * 1024 };

describe('the JavaScript size budget', () => {
  const bundle = readBundle(inject('spaDir'));
  let budget = JSON.parse(readFileSync(BUDGET_FILE, 'utf8')) as Budget;
  const chunks = bundle.chunks();
  const firstLoads = Object.fromEntries(
    Object.entries(FIRST_LOADS).map(([page, module]) => [page, bundle.firstLoad(module)]),
  );

  if (process.env.SIZE_BUDGET_UPDATE) {
    const round = (bytes: number) => Math.ceil((bytes * HEADROOM) / 256) * 256;
    const sorted = Object.fromEntries(Object.entries(chunks).sort(([a], [b]) => a.localeCompare(b)));
    const updated: Budget = {
      firstLoad: Object.fromEntries(
        Object.entries(firstLoads).map(([page, bytes]) => [page, Math.min(round(bytes), TARGETS[page] ?? Infinity)]),
      ),
      chunks: Object.fromEntries(Object.entries(sorted).map(([name, bytes]) => [name, round(bytes)])),
      newChunk: budget.newChunk,
    };
    writeFileSync(BUDGET_FILE, `${JSON.stringify(updated, null, 2)}\n`);
    budget = updated;
  }

  it('keeps the first load of each measured page within its budget', () => {
    const over = Object.entries(firstLoads)
      .filter(([page, bytes]) => bytes > (budget.firstLoad[page] ?? 0))
      .map(([page, bytes]) => `${page}: ${bytes} bytes gzip, budget ${budget.firstLoad[page]}`);
    expect(over, 'first loads over budget').toEqual([]);
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
