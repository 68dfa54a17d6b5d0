// An earlier release of trident, built from this repository's history into a temp dir with its own test hooks
// (the crash checkpoints), so that what it leaves in a config dir is what that release really writes.
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';

/** Checks out `commit` into `dir` (git archive: no worktree is added to the repository) and builds it for tests. */
export function buildRelease(repo, commit, dir) {
  const archive = spawnSync('git', ['-C', repo, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr}`);
  execFileSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  // No install scripts: the keys commands need no native module, and nothing is compiled.
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build.mjs', '--test'], { cwd: dir, stdio: 'inherit' });
  return {
    bin: join(dir, '.test-build/bin/trident.cjs'),
    /** That release's own sandbox library (its keys sandbox answers as that release expects). */
    sandboxApi: createRequire(join(dir, 'package.json'))(join(dir, '.test-build/dist/sandbox-api.cjs')),
  };
}

/** Runs the release's binary with nothing inherited but PATH, in a config dir of the case's own. */
export async function runRelease(release, args, { configDir, home, env = {} }) {
  const result = await execa(process.execPath, [release.bin, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CACHE_HOME: join(home, '.cache'),
      TRIDENT_CONFIG_DIR: configDir,
      TRIDENT_CREDENTIAL_STORE: 'file',
      ...env,
    },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  return { exitCode: result.exitCode, signal: result.signal, stdout: String(result.stdout), stderr: String(result.stderr) };
}
