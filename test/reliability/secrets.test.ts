// One representative run through every group with --debug, every byte of stdout and stderr kept: no private
// key material (compared against the actual key files), no time token or password, and no request signature
// may appear anywhere. With the umask at 0 (so only the modes trident asks for count), every file trident
// leaves in its config dir is 0600 and every directory 0700.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { PROD_1, tempConfigDir, trident, useServices, type Run } from './harness.js';

const services = useServices(['keys', 'time', 'catalog']);

/** Every file and directory under `dir` with its permission bits, e.g. ["keys/ 700", "keys/a.pem 600"]. */
function modes(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = lstatSync(path);
    const line = `${prefix}${name}${stat.isDirectory() ? '/' : ''} ${(stat.mode & 0o777).toString(8)}`;
    return stat.isDirectory() ? [line, ...modes(path, `${prefix}${name}/`)] : [line];
  });
}

/** The base64 lines of every PEM file under `dir` (recursively). */
function pemBodies(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.pem'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.length >= 16 && !line.startsWith('-----'));
}

describe('secrets under --debug, and file modes', () => {
  const configDir = tempConfigDir();
  const outputs: string[] = [];
  const runs: Array<{ args: string[]; run: Run }> = [];
  let umask: number;
  let modesWhileLoggedIn: string[] = [];
  let token = '';
  const uploadKey = join(mkdtempSync(join(tmpdir(), 'trident-rel-upload-')), 'mine.pem');
  const csv = join(mkdtempSync(join(tmpdir(), 'trident-rel-renames-')), 'renames.csv');

  async function step(args: string[], input?: string): Promise<Run> {
    const run = await trident(['--profile', 'ci', '--debug', ...args], { configDir, input, env: {} });
    runs.push({ args, run });
    outputs.push(run.stdout, run.stderr);
    expect(run.exitCode, `${args.join(' ')}\n${run.stderr}`).toBe(0);
    return run;
  }

  beforeAll(async () => {
    umask = process.umask(0);
    writeFileSync(uploadKey, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }), {
      mode: 0o600,
    });
    writeFileSync(csv, 'id,name\n4,Café Zürich AG\n5,"ООО ""Ромашка"""\n');
    const { keys, time, catalog } = services;
    for (const [key, value] of [
      ['keys.url', keys.url],
      ['keys.keyId', keys.bootstrap.keyId],
      ['keys.privateKeyFile', keys.bootstrap.privateKeyFile],
      ['time.url', time.url],
      ['caFile', time.caFile!],
      ['catalog.url', catalog.url],
    ]) {
      await step(['config', 'set', key!, value!]);
    }

    await step(['keys', 'list']);
    const created = JSON.parse((await step(['keys', 'create', '--name', 'made-here', '-o', 'json'])).stdout) as { api_key: string };
    await step(['keys', 'create', '--name', 'uploaded', '--public-key', uploadKey]);
    await step(['keys', 'generate', '--name', 'minted', '-o', 'json']);
    await step(['keys', 'generate', '--name', 'minted-elsewhere', '--out', join(configDir, 'extra', 'minted.pem')]);
    await step(['keys', 'delete', '--yes', created.api_key]);
    await step(['keys', 'rotate', '--yes', '-o', 'json']);
    await step(['keys', 'list', '-o', 'json']);

    await step(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], `${SANDBOX_TIME_USER.password}\n`);
    token = (JSON.parse(readFileSync(join(configDir, 'tokens', 'ci.json'), 'utf8')) as { token: string }).token;
    await step(['time', 'projects', '--status', 'all']);
    await step(['time', 'projects', 'get', '57', '-o', 'json']);
    await step(['time', 'projects', 'create', '--name', 'Secret audit']);
    await step(['time', 'customer-update', '3', '--name', 'Müller & Söhne KG']);
    await step(['time', 'customer-update', '--from-csv', csv, '-o', 'csv']);
    modesWhileLoggedIn = modes(configDir);
    await step(['time', 'logout']);

    await step(['catalog', 'health']);
    await step(['catalog', 'products', '--all', '--limit', '1', '-o', 'ndjson']);
    await step(['catalog', 'count', '--store', 'fixprice', '--region', 'москва']);
    await step([
      'catalog',
      'dynamics',
      PROD_1,
      '--store',
      'fixprice',
      '--source-id',
      'fp-1',
      '--field',
      'price',
      '--interval',
      '1d',
      '--from',
      '2026-02-01',
      '--to',
      '2026-02-03',
      '-o',
      'json',
    ]);
  });
  afterAll(() => {
    process.umask(umask);
  });

  it('logged every request (the scan below is not vacuous)', () => {
    const all = outputs.join('');
    for (const marker of ['debug: > POST', 'debug: > GET', 'debug: > DELETE', 'debug: < 201', 'rotate: ']) expect(all).toContain(marker);
    expect(runs.length).toBeGreaterThanOrEqual(25);
  });

  it('shows no private key: no PEM label, no line of any key file', () => {
    const bodies = [
      ...pemBodies(configDir),
      ...pemBodies(join(services.keys.bootstrap.privateKeyFile, '..')),
      ...pemBodies(join(uploadKey, '..')),
    ];
    expect(bodies.length).toBeGreaterThan(100);
    for (const { args, run } of runs) {
      const text = run.stdout + run.stderr;
      expect(text, args.join(' ')).not.toContain('PRIVATE KEY');
      for (const line of bodies) expect(text.includes(line), `${args.join(' ')} shows a line of a key file`).toBe(false);
    }
  });

  it('shows neither the time token nor the password', () => {
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    for (const { args, run } of runs) {
      expect(run.stdout + run.stderr, args.join(' ')).not.toContain(token);
      expect(run.stdout + run.stderr, args.join(' ')).not.toContain(SANDBOX_TIME_USER.password);
    }
  });

  it('shows no request signature', () => {
    const signatures = services.keys.server.requests.map((request) => String(request.headers['kalshi-access-signature']));
    expect(signatures.length).toBeGreaterThanOrEqual(10);
    const all = outputs.join('');
    for (const signature of signatures) expect(all.includes(signature), 'a signature header value was printed').toBe(false);
  });

  it('leaves every file 0600 and every directory 0700, even with the umask at 0', () => {
    for (const listing of [modesWhileLoggedIn, modes(configDir)]) {
      const loose = listing.filter((line) => (line.includes('/ ') ? !line.endsWith(' 700') : !line.endsWith(' 600')));
      expect(loose).toEqual([]);
    }
    expect((lstatSync(configDir).mode & 0o777).toString(8)).toBe('700');
    expect(modes(configDir)).not.toContain('tokens/ci.json 600');
    expect(modesWhileLoggedIn).toEqual(
      expect.arrayContaining(['settings.json 600', 'keys/ 700', 'tokens/ 700', 'tokens/ci.json 600', 'extra/ 700', 'extra/minted.pem 600']),
    );
    // The minted key and the rotation's new one: the deleted key's file went with it.
    expect(modesWhileLoggedIn.filter((line) => /^keys\/.+\.pem 600$/.test(line)).length).toBeGreaterThanOrEqual(2);
  });
});
