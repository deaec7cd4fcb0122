import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './support/server';

// findBy*/waitFor give up after 1 s by default; a page's first lazy chunk takes longer on a loaded two-core machine.
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// After-hooks run last-registered first: the page unmounts before its handlers go, so a late request still finds one.
afterEach(() => server.resetHandlers());
// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());
afterAll(() => server.close());
