import { existsSync, mkdtempSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/endpoints.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';

const sandboxProfile = (configDir: string): Record<string, string> | undefined =>
  existsSync(join(configDir, 'settings.json'))
    ? JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles.sandbox
    : undefined;

/**
 * A sandbox of its own (free ports, its own files) for the config dir, once it says it is running (its banner):
 * its profile written, signals its own. In an object: the running process is a promise of its end.
 */
async function startedSandbox(configDir: string): Promise<{ child: ReturnType<typeof spawnCli> }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'trident-sb-')), 'files');
  const sandbox = spawnCli(['sandbox', '--port', '0', '--dir', dir, '--products', '20'], { configDir });
  let stdout = '';
  sandbox.stdout!.on('data', (chunk: Buffer) => (stdout += String(chunk)));
  let exited = false;
  void sandbox.finally(() => (exited = true));
  for (let i = 0; i < 300 && !exited; i++) {
    if (stdout.includes('trident sandbox is running')) return { child: sandbox };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the sandbox did not start: ${exited ? String((await sandbox).stderr) : 'not within 30 s'}`);
}

/** The ports of the profile's three services. */
const profilePorts = (configDir: string) =>
  ['keys.url', 'time.url', 'catalog.url'].map((key) => Number(new URL(sandboxProfile(configDir)![key]!).port));

/** Whether this process can listen on the port: nothing holds it. */
function portFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function waitFor(file: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('trident sandbox', () => {
  it('serves the three services, writes a working profile, and stops cleanly on SIGINT (exit 130)', async () => {
    const configDir = tempConfigDir();
    const dir = join(mkdtempSync(join(tmpdir(), 'trident-sb-')), 'files');
    const sandbox = spawnCli(['sandbox', '--port', '0', '--dir', dir, '--products', '150'], { configDir });
    await waitFor(join(configDir, 'settings.json'));
    const settings = JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles.sandbox;
    expect(Object.keys(settings).sort()).toEqual(['caFile', 'catalog.url', 'keys.keyId', 'keys.privateKeyFile', 'keys.url', 'time.url']);
    expect(statSync(settings['keys.privateKeyFile']).mode & 0o777).toBe(0o600);
    expect(existsSync(settings.caFile)).toBe(true);

    const opts = { configDir };
    const keys = await runCli(['--profile', 'sandbox', 'keys', 'list', '-o', 'json'], opts);
    expect(keys.exitCode).toBe(0);
    expect(JSON.parse(keys.stdout)[0]).toMatchObject({ api_key: settings['keys.keyId'], name: 'sandbox-bootstrap' });
    const projects = await runCli(['--profile', 'sandbox', 'time', 'projects', '-o', 'json'], opts);
    expect(projects.exitCode).toBe(0);
    expect(JSON.parse(projects.stdout).length).toBeGreaterThan(0);
    const count = await runCli(['--profile', 'sandbox', 'catalog', 'count', '-o', 'json'], opts);
    expect(JSON.parse(count.stdout)).toMatchObject({ products_count: 150 });

    sandbox.kill('SIGINT');
    const result = await sandbox;
    expect(result.exitCode).toBe(130);
    expect(String(result.stdout)).toContain('trident keys list --profile sandbox');
    // The time login, for after a `time logout`: the user and its password, and the command.
    expect(String(result.stdout)).toContain(`time user ${SANDBOX_TIME_USER.email}, password ${SANDBOX_TIME_USER.password}`);
    expect(String(result.stdout)).toContain('trident time login --profile sandbox');
    expect(String(result.stderr)).toContain('sandbox stopped');
  });

  it.each(['SIGHUP', 'SIGTERM'] as const)(
    'ends on %s (its terminal closed, a job cancelled): exit 130, every port free again',
    async (signal) => {
      const configDir = tempConfigDir();
      const { child: sandbox } = await startedSandbox(configDir);
      const ports = profilePorts(configDir);
      sandbox.kill(signal);
      const result = await sandbox;
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr)).toBe(`sandbox stopped (${signal})\n`);
      for (const port of ports) expect(await portFree(port), `port ${port}`).toBe(true);
      expect(existsSync(join(configDir, 'sandbox-profile.lock'))).toBe(false);
    },
  );

  it('a second sandbox (another port and --dir) never rewrites the profile of a running one: exit 2, one line and a hint', async () => {
    const configDir = tempConfigDir();
    const { child: first } = await startedSandbox(configDir);
    const settings = readFileSync(join(configDir, 'settings.json'), 'utf8');
    const otherDir = join(mkdtempSync(join(tmpdir(), 'trident-sb-')), 'files');
    const second = await runCli(['sandbox', '--port', '0', '--dir', otherDir, '--products', '20'], { configDir });
    expect(second.exitCode).toBe(2);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `trident: another trident sandbox (pid ${first.pid}) runs with this config dir and owns its "sandbox" profile\n` +
        'hint: stop it first, or give this one a config dir of its own: TRIDENT_CONFIG_DIR=<another dir> trident sandbox --port 0\n',
    );
    // refused before it made or served anything; the first one's profile untouched and working
    expect(existsSync(otherDir)).toBe(false);
    expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe(settings);
    expect((await runCli(['--profile', 'sandbox', 'keys', 'list', '-o', 'json'], { configDir })).exitCode).toBe(0);
    first.kill('SIGINT');
    expect((await first).exitCode).toBe(130);
    // once it has ended, the next sandbox takes the profile over
    const { child: next } = await startedSandbox(configDir);
    next.kill('SIGINT');
    expect((await next).exitCode).toBe(130);
  });

  it('a sandbox killed outright (kill -9) leaves its claim behind: the next one takes it over at once', async () => {
    const configDir = tempConfigDir();
    const { child: killed } = await startedSandbox(configDir);
    killed.kill('SIGKILL');
    await killed;
    expect(existsSync(join(configDir, 'sandbox-profile.lock'))).toBe(true);
    const { child: next } = await startedSandbox(configDir);
    expect((await runCli(['--profile', 'sandbox', 'keys', 'list', '-o', 'json'], { configDir })).exitCode).toBe(0);
    next.kill('SIGINT');
    expect((await next).exitCode).toBe(130);
  });

  it('exits 2 when a port is taken, and writes no profile', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const configDir = tempConfigDir();
      const result = await runCli(['sandbox', '--port', String(port - 1), '--products', '20'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/port \d+ \(the (keys|time) service\) is in use/);
      expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('exits 2 on a broken --catalog-db, an unusable --dir and a non-loopback --host', async () => {
    const base = mkdtempSync(join(tmpdir(), 'trident-sb-'));
    const notDb = join(base, 'not.db');
    writeFileSync(notDb, 'hello');
    const file = join(base, 'file');
    writeFileSync(file, '');
    for (const args of [
      ['--catalog-db', notDb],
      ['--catalog-db', join(base, 'missing.db')],
      ['--dir', join(file, 'sub')],
      ['--host', '0.0.0.0'],
      ['--port', 'eighty'],
    ]) {
      const configDir = tempConfigDir();
      const result = await runCli(['sandbox', '--port', '0', ...args], { configDir });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(/^trident: /);
      expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    }
  });
});
