// Small benchmarking helpers: run whole commands many times, interleaved with their baseline so that
// machine noise hits both sides alike, and print median/min/max, the ratio of medians and peak RSS. Each run of
// trident is also paired with the baseline run next to it: the median of those pairs' ratios (with its
// quartiles) holds still on a machine whose speed drifts within a round, where medians of each side can not.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';
export const hasGnuTime = existsSync(GNU_TIME);

/** Runs a command once; returns wall time in ms and peak RSS in MB (when GNU time is there). */
export function runOnce({ cmd, args = [], env = process.env, input }) {
  const measured = hasGnuTime ? [GNU_TIME, ['-f', '__RSS_KB__ %M', cmd, ...args]] : [cmd, args];
  const start = process.hrtime.bigint();
  const result = spawnSync(measured[0], measured[1], {
    env,
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-500)}`);
  }
  const rss = /__RSS_KB__ (\d+)/.exec(result.stderr ?? '');
  return { ms, rssMb: rss ? Number(rss[1]) / 1024 : undefined };
}

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1) };
}

/** Runs `subject` and `baseline` alternately (`runs` times each, after `warmup` rounds). */
export function compare({ name, target, subject, baseline, runs = 15, warmup = 2 }) {
  const samples = { subject: [], baseline: [] };
  for (let i = 0; i < warmup + runs; i += 1) {
    const order = i % 2 ? ['subject', 'baseline'] : ['baseline', 'subject'];
    for (const side of order) {
      const sample = runOnce(side === 'subject' ? subject : baseline);
      if (i >= warmup) samples[side].push(sample);
    }
  }
  const summarize = (list) => ({
    ...stats(list.map((s) => s.ms)),
    rssMb: list.every((s) => s.rssMb !== undefined) ? Math.max(...list.map((s) => s.rssMb)) : undefined,
  });
  const s = summarize(samples.subject);
  const b = summarize(samples.baseline);
  const pairs = samples.subject.map((sample, i) => sample.ms / samples.baseline[i].ms).sort((x, y) => x - y);
  const paired = { median: stats(pairs).median, low: pairs[Math.floor(pairs.length / 4)], high: pairs[Math.floor((pairs.length * 3) / 4)] };
  return {
    name,
    target,
    subjectLabel: subject.label,
    baselineLabel: baseline.label,
    subject: s,
    baseline: b,
    ratio: s.median / b.median,
    paired,
  };
}

const fmt = (n, digits = 1) => (n === undefined ? '—' : n.toFixed(digits));

export function printComparisons(results) {
  const header = [
    'comparison',
    'trident median (min–max) ms',
    'baseline median (min–max) ms',
    'ratio (range over rounds)',
    'paired ratio (quartiles)',
    'target',
    'peak RSS MB (trident / baseline)',
  ];
  const rows = results.map((r) => [
    r.name,
    `${fmt(r.subject.median)} (${fmt(r.subject.min)}–${fmt(r.subject.max)})`,
    `${fmt(r.baseline.median)} (${fmt(r.baseline.min)}–${fmt(r.baseline.max)})`,
    r.ratioMin === undefined ? `${fmt(r.ratio, 2)}x` : `${fmt(r.ratio, 2)}x (${fmt(r.ratioMin, 2)}–${fmt(r.ratioMax, 2)}x)`,
    r.paired ? `${fmt(r.paired.median, 2)}x (${fmt(r.paired.low, 2)}–${fmt(r.paired.high, 2)}x)` : '—',
    r.target,
    `${fmt(r.subject.rssMb)} / ${fmt(r.baseline.rssMb)}`,
  ]);
  printTable(header, rows);
}

export function printTable(header, rows) {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/** Runs `compare` `rounds` times: the last round's figures, with the ratio's range over all rounds. */
export function compareRounds(spec, rounds) {
  const results = Array.from({ length: rounds }, () => compare(spec));
  const ratios = results.map((r) => r.ratio);
  return { ...results.at(-1), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios) };
}

/** Both commands' standard output, to check that a baseline prints what trident prints. */
export function sameOutput(a, b) {
  const out = ({ cmd, args = [], env = process.env }) => spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 1 << 30 }).stdout;
  return out(a) === out(b);
}
