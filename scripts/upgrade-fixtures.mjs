// Writes test/fixtures/upgrade-<commit>/: config dirs that an earlier release of trident really left behind
// (a rotation killed midway, create/generate records whose answer was lost or whose process was killed, old keys
// kept by rotations at each stage of their prune, key-ages.json), and the keys its sandbox held then, for
// test/e2e/upgrade.test.ts to recreate and hand to today's binary. Run it again when a case is added:
//
//   node scripts/upgrade-fixtures.mjs [--commit 1473a55] [--only <case>,<case>] [--keep]
//
// It checks the release out with git archive (no worktree is added), installs its dependencies from the npm
// registry and builds it with its test hooks, all in a temp dir (--keep leaves it there).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CASES } from './upgrade-fixtures/cases.mjs';
import { writeFixture } from './upgrade-fixtures/capture.mjs';
import { startKeyring } from './upgrade-fixtures/keyring.mjs';
import { buildRelease, runRelease } from './upgrade-fixtures/release.mjs';

/** src/keys/mint/pending.ts's LATE_KEY_WINDOW_MS. */
const LATE_KEY_WINDOW_MS = 2 * 60_000;
const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { commit: { type: 'string', default: '1473a55' }, only: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
// --only remakes the cases named and leaves the others' fixtures as they are.
const only = values.only?.split(',');
for (const name of only ?? []) if (!(name in CASES)) throw new Error(`no case ${name}; the cases: ${Object.keys(CASES).join(', ')}`);
const work = mkdtempSync(join(tmpdir(), `trident-upgrade-${values.commit}-`));
const fixtures = join(repo, 'test/fixtures', `upgrade-${values.commit}`);

try {
  mkdirSync(join(work, 'release'));
  const release = buildRelease(repo, values.commit, join(work, 'release'));
  for (const [name, produce] of Object.entries(CASES).filter(([name]) => !only || only.includes(name))) {
    const bench = await caseBench(release, join(work, 'cases', name));
    try {
      const roles = await produce(bench);
      writeFixture(join(fixtures, name), bench, { release: values.commit, roles });
      console.log(`${name}: ${JSON.stringify(roles)}`);
    } finally {
      await bench.sandbox.close();
      await bench.keyring?.stop();
    }
  }
  await outliveLateKeyWindow(join(work, 'cases'));
} finally {
  if (values.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/**
 * A record whose request made no key is forgotten only once no key can appear for it any more (two minutes after
 * it was written, trident's late-key window); until then today's keys list keeps it and the test that expects it
 * gone fails. Waits that out, so that the fixtures can be tested as soon as they are written.
 */
async function outliveLateKeyWindow(casesDir) {
  const written = readdirSync(casesDir).flatMap((name) => {
    const dir = join(casesDir, name, 'config', 'pending');
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((file) => Date.parse(JSON.parse(readFileSync(join(dir, file), 'utf8')).written_at));
  });
  const wait = Math.max(0, ...written.map((at) => at + LATE_KEY_WINDOW_MS + 5_000 - Date.now()));
  if (wait > 0) console.log(`waiting ${Math.ceil(wait / 1000)} s until the pending records are past trident's late-key window`);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** What a case works with: the release's binary in a config dir of its own, against a keys sandbox of its own. */
async function caseBench(release, root) {
  const configDir = join(root, 'config');
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const sandbox = await release.sandboxApi.startKeysSandbox({ dir: join(root, 'sandbox') });
  const profileKeyId = () => JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles.default['keys.keyId'];
  /** Every run's environment beyond the config dir: a keyring's, once a case asks for one. */
  const env = {};
  const bench = {
    root,
    configDir,
    outDir: join(root, 'out'),
    sandbox,
    profileKeyId,
    async run(args, { env: extra, allowFailure = false } = {}) {
      const result = await runRelease(release, args, { configDir, home, env: { ...env, ...extra } });
      if (result.exitCode !== 0 && !allowFailure) throw new Error(`${args.join(' ')}: exit ${result.exitCode}\n${result.stderr}`);
      return result;
    },
    /** Runs the release with its crash checkpoint at `point`: it must have killed itself there. */
    async killedAt(point, args) {
      const result = await runRelease(release, args, { configDir, home, env: { ...env, TRIDENT_TEST_CRASH_AFTER: point } });
      if (result.signal !== 'SIGKILL')
        throw new Error(`${args.join(' ')} did not stop at ${point}: exit ${result.exitCode}\n${result.stderr}`);
    },
    /** The default profile on a key the release generated (signed for by the sandbox's bootstrap key). */
    async profileKey(name) {
      await bench.run(['config', 'set', 'keys.url', sandbox.url]);
      const bootstrap = { TRIDENT_KEY_ID: sandbox.bootstrap.keyId, TRIDENT_PRIVATE_KEY_FILE: sandbox.bootstrap.privateKeyFile };
      await bench.run(['keys', 'generate', '--name', name, '--use'], { env: bootstrap });
      return profileKeyId();
    },
    /** From now on the release stores new keys in a Secret Service of the case's own (bench.keyring). */
    async useKeyring() {
      bench.keyring = await startKeyring(repo, root);
      Object.assign(env, bench.keyring.env, { TRIDENT_CREDENTIAL_STORE: 'keyring' });
    },
    settle: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return bench;
}
