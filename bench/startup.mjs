// npm run bench:startup [-- --lines 20,22,24] [--runs 21] [--instructions]: trident's start-up budget, on each
// Node line side by side (scripts/node-lines.mjs installs the pinned releases). Each goal runs trident and a
// baseline that does the same work without it, interleaved, and reports the median of paired runs' ratios:
//   keys list -o json        vs bench/baselines/keys-list.cjs (node:http, crypto.sign)
//   catalog --help (piped)   vs node -e 0
//   catalog products --all   vs bench/baselines/catalog-all.cjs 2 (node:http, asking ahead as trident does)
// --instructions also counts both sides' instructions with valgrind's callgrind: slower, but the same on a busy
// machine as on a quiet one. The exit code is 1 when a wall-clock goal is missed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compare, printTable } from './lib.mjs';
import { startBenchKeyring } from './keyring.mjs';
import { ROOT, TRIDENT, startBenchSandbox } from './sandbox.mjs';
import { nodeBinary } from '../scripts/node-lines.mjs';

const { values: flags } = parseArgs({
  options: { lines: { type: 'string', default: '20,22,24' }, runs: { type: 'string', default: '21' }, instructions: { type: 'boolean' } },
});
const lines = flags.lines.split(',');
const runs = Number(flags.runs);
const PRODUCTS = 20_000;

/** Targets per goal and Node line. */
const GOALS = [
  { name: 'keys list -o json', target: { 20: 1.2, default: 1.25 } },
  { name: 'catalog --help', target: { default: 1.15 } },
  { name: `catalog products --all -o ndjson (${PRODUCTS.toLocaleString('en')})`, target: { default: 1.1 } },
  { name: 'keys list -o json, its key in the OS keyring, vs its key in a file', target: { default: 1.1 } },
];

execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
const sandbox = await startBenchSandbox(PRODUCTS);
const keyring = await startBenchKeyring();
const KEYRING_REFERENCE = 'keyring:trident/bench/signing-key';
keyring?.put('bench/signing-key', readFileSync(sandbox.profile['keys.privateKeyFile'], 'utf8'));
const cells = GOALS.map(() => ({}));
let missed = false;
try {
  const baselineEnv = {
    ...process.env,
    KEY_ID: sandbox.profile['keys.keyId'],
    KEY_FILE: sandbox.profile['keys.privateKeyFile'],
    KEYS_URL: sandbox.profile['keys.url'],
    CATALOG_URL: sandbox.profile['catalog.url'],
  };
  for (const line of lines) {
    const node = nodeBinary(line);
    const baseline = (name, args = []) => ({ cmd: node, args: [join(ROOT, 'bench/baselines', name), ...args], env: baselineEnv });
    const trident = (args) => ({ cmd: node, args: [TRIDENT, ...args], env: sandbox.env });
    const pairs = [
      [trident(['keys', 'list', '-o', 'json']), baseline('keys-list.cjs')],
      [trident(['catalog', '--help']), { cmd: node, args: ['-e', '0'] }],
      [trident(['catalog', 'products', '--all', '-o', 'ndjson']), baseline('catalog-all.cjs', ['2'])],
      keyring && [
        {
          ...trident(['keys', 'list', '-o', 'json']),
          env: { ...sandbox.env, ...keyring.env, TRIDENT_PRIVATE_KEY_FILE: KEYRING_REFERENCE },
        },
        trident(['keys', 'list', '-o', 'json']),
      ],
    ];
    pairs.forEach((pair, at) => {
      if (!pair) {
        cells[at][line] = { cell: 'not measured: no dbus-run-session or gnome-keyring-daemon', target: GOALS[at].target.default };
        return;
      }
      const [subject, base] = pair;
      const long = at === 2;
      const result = compare({ subject, baseline: base, runs: long ? Math.ceil(runs / 3) : runs, warmup: 2 });
      const target = GOALS[at].target[line] ?? GOALS[at].target.default;
      const met = result.paired.median <= target;
      missed ||= !met;
      let cell = `${result.paired.median.toFixed(2)}x ${met ? 'ok' : 'MISSED'} (${result.subject.median.toFixed(0)} vs ${result.baseline.median.toFixed(0)} ms)`;
      if (flags.instructions && !long) cell += `, instructions ${(instructions(subject) / instructions(base)).toFixed(2)}x`;
      cells[at][line] = { cell, target };
    });
  }
} finally {
  await sandbox.stop();
  keyring?.stop();
}

console.log(`\n# trident start-up budget, ${new Date().toISOString().slice(0, 10)}: median of ${runs} paired runs' ratios\n`);
printTable(
  ['goal', ...lines.map((line) => `Node ${line} (target)`)],
  GOALS.map((goal, at) => [goal.name, ...lines.map((line) => `${cells[at][line].cell} (≤ ${cells[at][line].target}x)`)]),
);
process.exitCode = missed ? 1 : 0;

/** Instructions one run executes, all threads, counted by callgrind (after a run that fills the compile cache). */
function instructions({ cmd, args, env }) {
  spawnSync(cmd, args, { env, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'trident-callgrind-'));
  try {
    const out = join(dir, 'out');
    spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, cmd, ...args], { env, stdio: 'ignore' });
    return Number(/^summary: (\d+)/m.exec(readFileSync(out, 'utf8'))?.[1] ?? NaN);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
