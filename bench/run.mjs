// npm run bench: trident side by side with what a script could do without it, each comparison with its target.
// Prints markdown tables: median, min and max of both sides, the ratio of medians, the median of paired runs' ratios, and peak RSS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { compare, compareRounds, printComparisons, printTable, runOnce, sameOutput, stats } from './lib.mjs';
import { cryptoComparisons } from './crypto.mjs';
import { BENCH_DIR, ROOT, TRIDENT, startBenchSandbox } from './sandbox.mjs';

const node = process.execPath;
const quick = process.argv.includes('--quick');
const runs = quick ? 5 : 15;
// The goals against the floor (dependency-free scripts, bare Node, curl): ≥ 21 interleaved runs a side, the
// ratio's range over ≥ 2 rounds (--rounds N): on a shared, noisy machine one round can mislead.
const goalRuns = quick ? 5 : 21;
const roundsFlag = process.argv.indexOf('--rounds');
const rounds = roundsFlag >= 0 ? Number(process.argv[roundsFlag + 1]) : quick ? 1 : 2;
// --goals: only the comparisons against the floor (a few minutes instead of a quarter of an hour). The start-up
// budget on each Node line is bench/startup.mjs.
const goalsOnly = process.argv.includes('--goals');
const baselineScript = (name, env, args = []) => ({
  label: [name, ...args].join(' '),
  cmd: node,
  args: [join(ROOT, 'bench/baselines', name), ...args],
  env,
});
const trident = (args, env) => ({ label: 'trident', cmd: node, args: [TRIDENT, ...args], env });
const bareNode = { label: 'node -e 0', cmd: node, args: ['-e', '0'] };

console.log(
  `# trident benchmarks — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}\n`,
);

const results = [];
if (!goalsOnly)
  results.push(
    compare({
      name: '`trident --version` vs `node -e 0`',
      target: '≤ 1.2x',
      subject: trident(['--version']),
      baseline: bareNode,
      runs: runs * 2,
    }),
  );
results.push(
  compareRounds(
    {
      name: '`trident catalog --help` vs `node -e 0`',
      target: '≤ 1.15x',
      subject: trident(['catalog', '--help']),
      baseline: bareNode,
      runs: goalRuns,
    },
    rounds,
  ),
);

const sandbox = await startBenchSandbox(20_000);
try {
  const catalogUrl = sandbox.profile['catalog.url'];
  const keysEnv = {
    ...process.env,
    KEY_ID: sandbox.profile['keys.keyId'],
    KEY_FILE: sandbox.profile['keys.privateKeyFile'],
    KEYS_URL: sandbox.profile['keys.url'],
    CATALOG_URL: catalogUrl,
  };
  const goals = [
    {
      name: '`trident keys list -o json` vs a dependency-free script (node:http, crypto.sign)',
      target: '≤ 1.25x',
      subject: trident(['keys', 'list', '-o', 'json'], sandbox.env),
      baseline: baselineScript('keys-list.cjs', keysEnv),
    },
    {
      name: '`trident catalog count -o json` vs a dependency-free script (node:http)',
      target: '≤ 1.2x',
      subject: trident(['catalog', 'count', '-o', 'json'], sandbox.env),
      baseline: baselineScript('catalog-count.cjs', keysEnv),
    },
  ];
  for (const goal of goals) {
    if (!sameOutput(goal.subject, goal.baseline)) console.log(`note: the baseline of ${goal.name} does not print what trident prints\n`);
    results.push(compareRounds({ ...goal, runs: goalRuns }, rounds));
  }
  if (!goalsOnly)
    results.push(
      compare({
        name: '`trident catalog count` vs a `node -e` fetch one-liner',
        target: '≤ 1.5x',
        subject: trident(['catalog', 'count', '-o', 'json'], sandbox.env),
        baseline: {
          cmd: node,
          args: [
            '-e',
            `fetch(${JSON.stringify(`${catalogUrl}/products/count`)}).then((r) => r.json()).then((j) => console.log(j.products_count))`,
          ],
        },
        runs: runs * 2,
      }),
    );

  results.push(...listingComparisons(catalogUrl, sandbox.env, keysEnv, 20_000, goalRuns));

  if (!goalsOnly)
    results.push(
      compare({
        name: '`trident keys list -o json` vs the official SDK (kalshi-typescript 3.30)',
        target: '≤ 0.7x',
        subject: trident(['keys', 'list', '-o', 'json'], sandbox.env),
        baseline: { cmd: node, args: [join(ROOT, 'bench/kalshi-sdk-list.cjs')], env: keysEnv },
        runs: runs * 2,
      }),
    );

  // --jq loads jq (WebAssembly) only when given: its cost, and that of status (one GET to each service).
  if (!goalsOnly)
    results.push(
      compare({
        name: '`trident keys list --jq .` vs `trident keys list -o json` (start-up cost of --jq)',
        target: 'noted',
        subject: trident(['keys', 'list', '--jq', '.'], sandbox.env),
        baseline: trident(['keys', 'list', '-o', 'json'], sandbox.env),
        runs: runs * 2,
      }),
    );
  if (!goalsOnly)
    results.push(
      compare({
        name: '`trident status -o json` (a GET to each of the three services) vs `trident keys list -o json`',
        target: 'noted',
        subject: trident(['status', '-o', 'json'], sandbox.env),
        baseline: trident(['keys', 'list', '-o', 'json'], sandbox.env),
        runs: runs * 2,
      }),
    );
} finally {
  await sandbox.stop();
}

console.log('## Side by side\n');
printComparisons(results);

if (!goalsOnly) {
  console.log('\n## Key work in-process (ms per operation)\n');
  const crypto = await cryptoComparisons({ keygenRuns: quick ? 15 : 120, signRuns: quick ? 500 : 2000 });
  printTable(
    ['comparison', 'trident median (min–max) ms', 'node:crypto alone median (min–max) ms', 'ratio', 'target'],
    crypto.map((r) => [r.name, fmtStats(r.subject, 3), fmtStats(r.baseline, 3), `${r.ratio.toFixed(2)}x`, r.target]),
  );

  console.log('\n## How count and listing scale with the catalog\n');
  const scale = [];
  for (const size of quick ? [2_000, 20_000] : [2_000, 20_000, 100_000]) {
    const sized = await startBenchSandbox(size);
    try {
      const count = stats(Array.from({ length: 5 }, () => runOnce(trident(['catalog', 'count', '-o', 'json'], sized.env)).ms));
      const listing = Array.from({ length: 3 }, () => runOnce(trident(['catalog', 'products', '--all', '-o', 'ndjson'], sized.env)));
      const list = stats(listing.map((s) => s.ms));
      const rss = Math.max(...listing.map((s) => s.rssMb ?? NaN));
      scale.push([size.toLocaleString('en'), fmtStats(count, 0), fmtStats(list, 0), Number.isNaN(rss) ? '—' : rss.toFixed(0)]);
    } finally {
      await sized.stop();
    }
  }
  printTable(['products', '`catalog count` ms median (min–max)', '`products --all -o ndjson` ms median (min–max)', 'peak RSS MB'], scale);
}

/**
 * `--all` vs curl over the same pages; the same without start-up (each side's --all minus its first page
 * alone: its own start-up and first request), so that what the pages themselves cost is seen apart; `--all` vs
 * two dependency-free Node scripts (node:http), one page after another and asking ahead as trident does; and the
 * second of those against curl: the floor for a Node client.
 */
function listingComparisons(catalogUrl, env, baselineEnv, total, count) {
  // curl fetches the very pages trident fetches (limit 100), one after another over one keep-alive connection.
  const config = join(BENCH_DIR, `curl-pages-${total}.txt`);
  const lines = [];
  for (let offset = 0; offset < total; offset += 100) {
    lines.push(`url = "${catalogUrl}/products?limit=100&offset=${offset}"`, 'output = "/dev/null"');
  }
  writeFileSync(config, `${lines.join('\n')}\n`);
  const curl = (args) => ({ label: 'curl', cmd: 'curl', args: ['-s', '--fail', ...args] });
  const listAll = trident(['catalog', 'products', '--all', '-o', 'ndjson'], env);
  const all = compareRounds(
    {
      name: `\`trident catalog products --all -o ndjson\` (${total.toLocaleString('en')} products) vs one curl over the same pages`,
      target: '≤ 1.1x, RSS ≤ 80 MB',
      subject: listAll,
      baseline: curl(['-K', config]),
      runs: count,
      warmup: 1,
    },
    rounds,
  );
  const first = compare({
    name: 'the first page alone',
    subject: trident(['catalog', 'products', '--limit', '100', '-o', 'ndjson'], env),
    baseline: curl(['-o', '/dev/null', `${catalogUrl}/products?limit=100&offset=0`]),
    runs: count,
  });
  const rest = (side) => ({ median: all[side].median - first[side].median });
  const withoutStartup = {
    name: `the same without start-up: --all minus the first page alone (its median ${first.subject.median.toFixed(1)} ms vs curl ${first.baseline.median.toFixed(1)} ms), medians only`,
    target: 'noted',
    subject: rest('subject'),
    baseline: rest('baseline'),
    ratio: rest('subject').median / rest('baseline').median,
  };
  const script = baselineScript('catalog-all.cjs', baselineEnv);
  const ahead = baselineScript('catalog-all.cjs', baselineEnv, ['2']);
  for (const baseline of [script, ahead]) {
    if (!sameOutput(listAll, baseline)) console.log(`note: bench/baselines/${baseline.label} does not print what trident prints\n`);
  }
  const listing = (name, subject, baseline) => compareRounds({ name, target: 'noted', subject, baseline, runs: count, warmup: 1 }, rounds);
  return [
    all,
    withoutStartup,
    listing('`trident catalog products --all -o ndjson` vs a dependency-free script (node:http, one page after another)', listAll, script),
    listing(
      '`trident catalog products --all -o ndjson` vs a dependency-free script asking 2 pages ahead as trident does (`catalog-all.cjs 2`: node:http, a connection each)',
      listAll,
      ahead,
    ),
    // Where any Node client stands against the goal's reference: Node's start-up alone is ~13% of curl's walk here.
    listing('the floor of a Node client: that script asking ahead (in the trident column) vs the same curl', ahead, curl(['-K', config])),
  ];
}

function fmtStats(s, digits) {
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}
