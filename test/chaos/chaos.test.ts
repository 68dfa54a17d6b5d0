// The chaos harness on a fixed list of seeds (docs/chaos.md): random schedules of two or three clients on one
// account making, rotating, resuming and aborting keys while the service loses answers and mints late and
// processes are killed; after each, the invariants of the key lifecycle. A failure prints the whole report.
// Not among the default projects: run it with npx vitest run --config test/chaos/vitest.config.ts
import { describe, expect, it } from 'vitest';
import { runSeed } from './run-seed.js';
import { FIXED_SEEDS as SEEDS } from './seeds.js';

describe.concurrent('chaos: the key lifecycle under random schedules', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}`, async () => {
      const result = await runSeed(seed);
      if (result.violations.length > 0) expect.fail(result.report);
    });
  }
});
