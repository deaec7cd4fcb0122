import { setupServer } from 'msw/node';

/**
 * The one msw server of the spa project, started and reset by tests/unit/setup.ts.
 * A test file answers the calls it expects with `server.use(...)` (in a `beforeEach` for the whole file);
 * any call nobody answers fails the test, so a page cannot quietly depend on a request the test never saw.
 */
export const server = setupServer();
