import { defineConfig } from 'vitest/config';

const api = (db: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `api-${db}`,
    include: ['test/**/*.test.ts'],
    env: { TEST_DB: db },
    globalSetup: [`test/support/global-setup.ts`],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    // PGlite instances are large; two files at a time suits this 2-core machine
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      api('pglite'),
      api('postgres'),
    ],
  },
});
