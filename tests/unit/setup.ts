import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { server } from './support/server';

// findBy*/waitFor give up after 1 s by default; a page's first lazy chunk takes longer on a loaded two-core machine.
configure({ asyncUtilTimeout: 5_000 });

/**
 * Requests no handler answered. msw's 'error' strategy only fails the request, and a page that swallows the
 * failure (page meta, a badge) would pass its test; the test itself fails on a stray call instead.
 */
const unhandled: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      unhandled.push(`${request.method} ${new URL(request.url).pathname}`);
      print.error();
    },
  }),
);
// After-hooks run last-registered first: this check runs after the page unmounted, so its late calls count too.
afterEach(() => {
  expect(unhandled.splice(0), 'requests no msw handler answered').toEqual([]);
});
// The page unmounts before its handlers go, and a request it sent just before reaches msw while they are still there.
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  server.resetHandlers();
});
// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
afterAll(() => server.close());
