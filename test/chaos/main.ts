// `npm run chaos`: many seeds outside the fixed list of chaos.test.ts (scripts/chaos.mjs bundles this file
// and calls main). One line per failing seed, so that each replays with --seed, its full report kept in a file;
// the count at the end.
//   --runs N   how many seeds (default 100), from --from (default: a random one)
//   --seed N   this seed alone, with its full report
//   --jobs N   schedules at once (default 2)
import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatReport, replayCommand, summaryLine } from './report.js';
import { runSeed, type SeedResult } from './run-seed.js';

interface Options {
  runs: number;
  from: number;
  seed?: number;
  jobs: number;
}

const FLAGS = ['--runs', '--from', '--seed', '--jobs'];

function parse(argv: string[]): Options {
  const given = new Map<string, number>();
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, text] = [argv[index]!, argv[index + 1]];
    if (!FLAGS.includes(flag)) throw new Error(`unknown option "${flag}" (options: ${FLAGS.map((known) => `${known} N`).join(', ')})`);
    const number = Number(text);
    if (text === undefined || !Number.isSafeInteger(number) || number < 0)
      throw new Error(`${flag} needs a whole number, not "${text ?? ''}"`);
    given.set(flag, number);
  }
  const seed = given.get('--seed');
  return {
    runs: given.get('--runs') ?? 100,
    from: given.get('--from') ?? randomInt(2 ** 31),
    ...(seed === undefined ? {} : { seed }),
    jobs: Math.max(1, given.get('--jobs') ?? 2),
  };
}

async function replay(seed: number): Promise<number> {
  const result = await runSeed(seed, 'failing');
  // The whole report either way: what each process did is worth a look when a seed is replayed.
  console.log(result.observation ? formatReport(result.observation, result.violations) : result.report);
  if (result.violations.length === 0) console.log(`chaos seed ${seed}: no violation (${result.ms} ms)`);
  console.log(`1 schedules, ${result.violations.length} violations`);
  return result.violations.length > 0 ? 1 : 0;
}

async function many(options: Options): Promise<number> {
  const seeds = Array.from({ length: options.runs }, (_, index) => options.from + index);
  console.log(`chaos: ${seeds.length} schedules, seeds ${seeds[0]}-${seeds.at(-1)}, ${options.jobs} at a time`);
  const failed: SeedResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const seed = seeds[next++]!;
      const result = await runSeed(seed, 'none');
      if (result.violations.length === 0) continue;
      failed.push(result);
      // A racing schedule may not break again when replayed: its whole report is kept.
      const kept = join(tmpdir(), `trident-chaos-report-${seed}.txt`);
      writeFileSync(kept, `${result.report}\n`);
      console.log(`${summaryLine(seed, result.violations)} (report: ${kept})`);
    }
  };
  await Promise.all(Array.from({ length: options.jobs }, worker));
  const violations = failed.reduce((sum, result) => sum + result.violations.length, 0);
  if (failed.length > 0) console.log(`replay one with: ${replayCommand(failed[0]!.seed)}`);
  console.log(`${seeds.length} schedules, ${violations} violations${failed.length > 0 ? ` (in ${failed.length} schedules)` : ''}`);
  return failed.length > 0 ? 1 : 0;
}

export async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  return options.seed === undefined ? many(options) : replay(options.seed);
}
