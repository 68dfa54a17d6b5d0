import { defineConfig } from 'vitest/config';

// Two projects: unit tests import the sources and need no build; the others run the built binary
// (bin/trident.cjs), so only they rebuild dist/ first (global setup).
export default defineConfig({
  test: {
    pool: 'forks',
    // Most tests wait on child processes and sockets: two workers keep both cores busy.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'binary',
          include: ['test/e2e/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/sandbox/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      // A fixed set of seeds of the key lifecycle's chaos harness (docs/chaos.md); npm run chaos runs more.
      {
        extends: true,
        test: { name: 'chaos', include: ['test/chaos/**/*.test.ts'], globalSetup: ['test/global-setup.ts'], testTimeout: 120_000 },
      },
    ],
  },
});
