import { defineConfig } from 'vitest/config';

const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  extends: false as const,
  test: {
    name,
    root: 'server',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
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
        },
      },
      {
        extends: false,
        test: { name: 'contract', root: 'contract', include: ['test/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: false,
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
        extends: false,
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
