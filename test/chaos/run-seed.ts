// One seed, start to end: its schedule, run, checked; its files removed unless something broke.
import { rmSync } from 'node:fs';
import { checkInvariants, type Violation } from './invariants.js';
import type { Observation } from './observation.js';
import { formatReport } from './report.js';
import { runSchedule } from './runner.js';
import { scheduleFor } from './schedule.js';

export interface SeedResult {
  seed: number;
  violations: Violation[];
  /** The full report; empty when nothing broke. */
  report: string;
  ms: number;
  observation?: Observation;
}

/** Which schedules' files (clients' disks, the sandbox's key) stay for a look afterwards. */
export type Keep = 'none' | 'failing' | 'all';

export async function runSeed(seed: number, keep: Keep = 'failing'): Promise<SeedResult> {
  const start = performance.now();
  const schedule = scheduleFor(seed);
  let observation: Observation;
  try {
    observation = await runSchedule(schedule);
  } catch (error) {
    const message = `the schedule did not run: ${(error as Error).stack ?? String(error)}`;
    return {
      seed,
      violations: [{ invariant: 'harness', message, keys: [] }],
      report: `chaos seed ${seed}: ${message}\nschedule: ${JSON.stringify(schedule)}`,
      ms: Math.round(performance.now() - start),
    };
  }
  const violations = checkInvariants(observation);
  if (keep === 'none' || (keep === 'failing' && violations.length === 0)) rmSync(observation.workDir, { recursive: true, force: true });
  return {
    seed,
    violations,
    report: violations.length > 0 ? formatReport(observation, violations) : '',
    ms: Math.round(performance.now() - start),
    observation,
  };
}
