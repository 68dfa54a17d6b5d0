// The published form installs without compiling or running anything: no package it depends on has an install script
// or a native addon to build (the keyring's comes prebuilt in a package of its own; the sandbox's SQLite is node:sqlite where Node has it, 22.16 and later, and WebAssembly
// elsewhere). Installed with scripts off, it runs every command, the sandbox included, on the Node under test. The
// published form is built, packed and installed into a project of its own, then run as installed.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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

/** What npm runs at install: a package's scripts of these names, or node-gyp where it finds a binding.gyp. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

let keys: KeysSandbox;
let catalog: CatalogSandbox;

beforeAll(async () => {
  const tarball = pack();
  // From the cache `npm ci` filled, as a second install of the same packages is.
  // Scripts off, so that nothing a dependency would compile or fetch at install is there for the tests below.
  execFileSync('npm', ['install', tarball, '--ignore-scripts', '--prefer-offline', '--no-save', '--no-audit', '--no-fund'], {
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

describe('installed with install scripts off', () => {
  it('no installed package has an install script or anything to compile', () => {
    const installed = readdirSync(modules, { recursive: true, encoding: 'utf8' });
    expect(installed).toContain('trident-cli');
    // Each package's own manifest, scoped or nested in another's node_modules.
    const manifests = installed.filter((path) => /^(?:.*\/node_modules\/)?(?:@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(path));
    expect(manifests).toContain(join('node-sqlite3-wasm', 'package.json'));
    const withScripts = manifests.filter((path) => {
      const { scripts = {} } = JSON.parse(readFileSync(join(modules, path), 'utf8')) as { scripts?: Record<string, string> };
      return INSTALL_SCRIPTS.some((name) => name in scripts) || installed.includes(join(dirname(path), 'binding.gyp'));
    });
    expect(withScripts).toEqual([]);
  });

  it('every command works as installed', async () => {
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

  it(`trident sandbox serves its catalog (Node ${process.versions.node})`, expectSandboxRuns, 90_000);
});
