// better-sqlite3 is an optional dependency: the package installed without it (`npm install --omit=optional`, as a
// machine without a C compiler ends up too) runs every command, and `trident sandbox` runs on node:sqlite where
// Node has it (22.16 and later) and elsewhere exits 2 naming what to install. The published form is built, packed
// and installed into a project of its own, then run as installed.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, tempConfigDir, type CliResult } from '../helpers/cli.js';
import { seededCatalog, startSandbox as startCatalogSandbox } from '../helpers/catalog-fixtures.js';
import { sandboxEnv, startSandbox as startKeysSandbox } from '../helpers/keys-sandbox.js';
import { waitForFile } from '../helpers/processes.js';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const [MAJOR, MINOR] = process.versions.node.split('.').map(Number) as [number, number];
/** Node's own SQLite has all the sandbox uses from 22.16 on. */
const NODE_HAS_SQLITE = MAJOR > 22 || (MAJOR === 22 && MINOR >= 16);
/** better-sqlite3 and what it loads at run time, as `npm install better-sqlite3` leaves them. */
const BETTER_SQLITE3 = ['better-sqlite3', 'bindings', 'file-uri-to-path'];

const project = mkdtempSync(join(tmpdir(), 'trident-install-'));
const modules = join(project, 'node_modules');
const TRIDENT = join(modules, 'trident-cli', 'bin', 'trident.cjs');

/** The published package: built into a directory of its own and packed there. */
function pack(): string {
  const stage = join(project, 'stage');
  mkdirSync(stage);
  for (const entry of ['package.json', 'README.md', 'bin', 'completions', 'docs'])
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  // The build renders help with the CLI it made, which finds its packages from there.
  symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', join(stage, 'dist')], { cwd: ROOT, stdio: 'pipe' });
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', project], { cwd: stage, stdio: 'pipe' });
  return join(
    project,
    readdirSync(project).find((name) => name.endsWith('.tgz'))!,
  );
}

function trident(args: string[], options: { configDir: string; env?: Record<string, string> }): Promise<CliResult> {
  return execa(process.execPath, [TRIDENT, ...args], {
    env: childEnv(options),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    stdin: 'ignore',
    timeout: 30_000,
  }).then((result) => ({ exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) }));
}

/** `trident sandbox` as installed: serves a catalog that `catalog count` reads, stops on SIGINT with nothing to warn. */
async function expectSandboxRuns(): Promise<void> {
  const configDir = tempConfigDir();
  const dir = mkdtempSync(join(project, 'files-'));
  const sandbox = execa(process.execPath, [TRIDENT, 'sandbox', '--port', '0', '--dir', dir, '--products', '30'], {
    env: childEnv({ configDir }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 60_000,
  });
  try {
    await Promise.race([
      waitForFile(join(configDir, 'settings.json')),
      sandbox.then((r) => Promise.reject(new Error(`sandbox exited: ${r.stderr}`))),
    ]);
    const count = await trident(['--profile', 'sandbox', 'catalog', 'count', '-o', 'json'], { configDir });
    expect(count.exitCode, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout)).toMatchObject({ products_count: 30 });
  } finally {
    sandbox.kill('SIGINT');
  }
  const result = await sandbox;
  expect(result.exitCode).toBe(130);
  // Node 22 warns that SQLite is experimental when node:sqlite loads: not for the user's terminal.
  expect(String(result.stderr)).not.toMatch(/warning/i);
}

/** What `trident sandbox` answers on a Node without node:sqlite when better-sqlite3 cannot serve: exit 2, two lines. */
function refusal(why: string): CliResult {
  return {
    exitCode: 2,
    stdout: '',
    stderr:
      `trident: the sandbox needs SQLite: Node ${process.version} has no node:sqlite it can use, and ${why}\n` +
      'hint: install better-sqlite3 for this Node beside trident (npm install -g better-sqlite3), or run trident on Node 22.16 or newer\n',
  };
}

let keys: KeysSandbox;
let catalog: CatalogSandbox;

beforeAll(async () => {
  const tarball = pack();
  // From the cache `npm ci` filled, as a second install of the same packages is.
  execFileSync('npm', ['install', tarball, '--omit=optional', '--prefer-offline', '--no-save', '--no-audit', '--no-fund'], {
    cwd: project,
    stdio: 'pipe',
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  [keys, catalog] = await Promise.all([startKeysSandbox(), startCatalogSandbox(seededCatalog(25))]);
}, 180_000);

afterAll(async () => {
  await Promise.all([keys?.close(), catalog?.close()]);
  rmSync(project, { recursive: true, force: true });
});

describe('installed without better-sqlite3', () => {
  it('has no better-sqlite3 anywhere, and every command but sandbox works', async () => {
    const installed = readdirSync(modules, { recursive: true, encoding: 'utf8' });
    expect(installed).toContain('trident-cli');
    expect(installed.filter((path) => BETTER_SQLITE3.some((name) => path.split(sep).includes(name)))).toEqual([]);

    const configDir = tempConfigDir();
    const version = await trident(['--version'], { configDir });
    expect(version).toMatchObject({ exitCode: 0, stdout: `${VERSION}\n`, stderr: '' });
    const help = await trident(['catalog', '--help'], { configDir });
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: trident catalog/);

    const sent = keys.server.requests.length;
    const list = await trident(['keys', 'list', '-o', 'json'], { configDir, env: sandboxEnv(keys) });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((key: { api_key: string }) => key.api_key)).toContain(keys.bootstrap.keyId);
    expect(keys.server.requests.slice(sent).map(({ method }) => method)).toEqual(['GET']);

    const count = await trident(['catalog', 'count', '-o', 'json'], { configDir, env: { TRIDENT_CATALOG_URL: catalog.url } });
    expect(count.exitCode, count.stderr).toBe(0);
    expect(JSON.parse(count.stdout)).toMatchObject({ products_count: 25 });
  });

  it(`trident sandbox ${NODE_HAS_SQLITE ? 'runs on node:sqlite' : 'exits 2 naming what to install, having made nothing'} (Node ${process.versions.node})`, async () => {
    if (NODE_HAS_SQLITE) return expectSandboxRuns();
    const configDir = tempConfigDir();
    const dir = join(project, 'refused');
    const started = performance.now();
    const result = await trident(['sandbox', '--port', '0', '--dir', dir, '--products', '30'], { configDir });
    expect(result).toEqual(refusal('better-sqlite3 is not installed'));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(configDir)).toBe(false);
  });

  it('with better-sqlite3 put beside trident, as the hint says, the sandbox runs on every Node line', async () => {
    // better-sqlite3 copied without its built addon, as `npm install --ignore-scripts` leaves it: where Node has
    // no SQLite of its own, the sandbox says that it cannot be loaded.
    const addon = join(ROOT, 'node_modules', 'better-sqlite3', 'build');
    const unbuilt = (path: string) => path !== addon && !path.startsWith(addon + sep);
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3'), join(modules, 'better-sqlite3'), { recursive: true, filter: unbuilt });
    for (const name of BETTER_SQLITE3.slice(1)) cpSync(join(ROOT, 'node_modules', name), join(modules, name), { recursive: true });
    if (!NODE_HAS_SQLITE) {
      const configDir = tempConfigDir();
      const refused = await trident(['sandbox', '--port', '0', '--dir', join(project, 'refused'), '--products', '30'], { configDir });
      expect(refused).toEqual(refusal('better-sqlite3 cannot be loaded (Could not locate the bindings file.)'));
    }
    // The addon this test run uses, built for this machine's Node: Node 22.16+ and 24 never load it.
    cpSync(addon, join(modules, 'better-sqlite3', 'build'), { recursive: true });
    await expectSandboxRuns();
  }, 90_000);
});
