import { defineConfig } from 'vitest/config';

const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // One process for all the files, not a new one per file: each used to import the server's dependencies again
    // (Fastify, firebase-admin, Stripe, PGlite), over a second a file and a third of the group's time. Every file
    // makes its own database and app, and no server test mocks a module (docs/testing.md).
    isolate: false,
    env: { TEST_DATABASE: database },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        extends: './vite.config.ts',
        test: {
          name: 'spa',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/setup.ts'],
          // Typing-heavy component tests run for seconds on a loaded two-core machine; a hang still fails.
          testTimeout: 20_000,
        },
      },
      {
        test: { name: 'contract', root: 'contract', include: ['test/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'gnss', root: 'gnss', include: ['test/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        test: {
          name: 'caster',
          root: 'caster',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      serverProject('server-pglite', 'pglite'),
      serverProject('server-postgres', 'postgres'),
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['tests/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
