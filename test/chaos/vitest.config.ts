import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The chaos harness on its own (npm test runs it too, as the project "chaos"). It runs the built binary, so the
// global setup builds .test-build/ with the test hooks first.
//   npx vitest run --config test/chaos/vitest.config.ts
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'chaos',
    include: ['test/chaos/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    // Each schedule keeps a few processes busy: two at a time fill two cores.
    maxConcurrency: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
