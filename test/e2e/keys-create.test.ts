import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { selfSignedCertificatePem } from '../unit/keys/fixtures.js';
import {
  PRIVATE_KEY_MATERIAL,
  fileMode,
  keyFiles,
  keysNamed,
  pendingFiles,
  requestsFrom,
  runKeys,
  tagged,
} from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ resetAfterEach: true });
const work = mkdtempSync(join(tmpdir(), 'trident-keys-create-'));

function pemFile(name: string, pem: string): string {
  const path = join(work, name);
  writeFileSync(path, pem, { mode: 0o600 });
  return path;
}

describe('keys create with a pair made here', () => {
  it('stores the private key 0600 at the default path and uploads only the public half', async () => {
    const configDir = tempConfigDir();
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['create', '--name', 'laptop', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    const id = output.api_key as string;
    expect(output).toEqual({
      api_key: id,
      name: expect.stringMatching(tagged('laptop')),
      given_name: 'laptop',
      scopes: ['read', 'write'],
      created_ts: expect.any(String),
      subaccount: null,
      private_key_file: join(configDir, 'keys', `${id}.pem`),
    });
    expect(keyFiles(configDir)).toEqual([`${id}.pem`]);
    expect(fileMode(output.private_key_file)).toBe(0o600);
    const upload = sandbox.server.requests.at(-1)!;
    expect(seen()).toEqual([{ method: 'POST', path: '/trade-api/v2/api_keys' }]);
    expect(upload.headers['content-type']).toBe('application/json');
    expect(JSON.parse(upload.body).public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(upload.body).not.toMatch(/PRIVATE KEY/);
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    const withNewKey = await runKeys(sandbox, ['list', '--key-id', id, '--private-key', output.private_key_file]);
    expect(withNewKey.exitCode, withNewKey.stderr).toBe(0);
  });

  it('honours --out, --bits, --scopes and --subaccount', async () => {
    const out = join(work, 'desk.pem');
    const result = await runKeys(sandbox, [
      'create',
      '--name',
      'desk',
      '--out',
      out,
      '--bits',
      '3072',
      '--scopes',
      'read',
      '--subaccount',
      '4',
      '-o',
      'json',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.private_key_file).toBe(out);
    expect(output).toMatchObject({ scopes: ['read'], subaccount: 4 });
    expect(createPrivateKey(readFileSync(out, 'utf8')).asymmetricKeyDetails?.modulusLength).toBe(3072);
    expect(fileMode(out)).toBe(0o600);
    expect(readdirSync(work).filter((name) => name.startsWith('pending-'))).toEqual([]);
  });

  it('removes the staged private key when the upload is refused', async () => {
    const configDir = tempConfigDir();
    const out = join(work, 'refused.pem');
    sandbox.server.faults.add({
      method: 'POST',
      path: /\/api_keys$/,
      fault: { kind: 'status', status: 400, body: { error: 'bad request' } },
      times: 2,
    });
    const atDefault = await runKeys(sandbox, ['create', '--name', 'refused'], { configDir });
    expect(atDefault.exitCode).toBe(6);
    expect(keyFiles(configDir)).toEqual([]);
    expect(pendingFiles(configDir)).toEqual([]);
    const atOut = await runKeys(sandbox, ['create', '--name', 'refused', '--out', out]);
    expect(atOut.exitCode).toBe(6);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(work).filter((name) => name.startsWith('pending-'))).toEqual([]);
  });

  it('keeps the staged private key, recorded, when the upload fails with a 500 (the service may still make the key)', async () => {
    const configDir = tempConfigDir();
    sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'status', status: 500 } });
    const failed = await runKeys(sandbox, ['create', '--name', 'failed'], { configDir });
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toContain('keys service answered 500');
    expect(failed.stderr).toContain('a check found no key of that request yet');
    const [staged] = keyFiles(configDir);
    expect(staged).toMatch(/^pending-.*\.pem$/);
    expect(fileMode(join(configDir, 'keys', staged!))).toBe(0o600);
    expect(pendingFiles(configDir)).toHaveLength(1);
  });

  it('finds the key a create made when the answer was lost, keeps it, and does not repeat the request', async () => {
    const configDir = tempConfigDir();
    sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'reset', afterProcessing: true } });
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['create', '--name', 'maybe', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const [made] = keysNamed(sandbox, 'maybe');
    expect(JSON.parse(result.stdout)).toMatchObject({
      api_key: made!.api_key,
      private_key_file: join(configDir, 'keys', `${made!.api_key}.pem`),
    });
    expect(result.stderr).toContain('the answer to the create request was lost');
    expect(keyFiles(configDir)).toEqual([`${made!.api_key}.pem`]);
    expect(fileMode(join(configDir, 'keys', `${made!.api_key}.pem`))).toBe(0o600);
    expect(seen().map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
    expect(result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  });

  it('a lost answer with --out: the key found is kept at the --out asked for, where the next script reads it', async () => {
    const configDir = tempConfigDir();
    const out = join(tempConfigDir(), 'ci.pem');
    sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'reset', afterProcessing: true } });
    const result = await runKeys(sandbox, ['create', '--name', 'lost-out', '--out', out, '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const [made] = keysNamed(sandbox, 'lost-out');
    expect(JSON.parse(result.stdout)).toMatchObject({ api_key: made!.api_key, private_key_file: out });
    expect(fileMode(out)).toBe(0o600);
    expect(readdirSync(dirname(out))).toEqual(['ci.pem']);
    expect(pendingFiles(configDir)).toEqual([]);
    const signs = await runCli(['keys', 'list'], {
      configDir,
      env: { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: made!.api_key, TRIDENT_PRIVATE_KEY_FILE: out },
    });
    expect(signs.exitCode, signs.stderr).toBe(0);
  });

  it('keeps the private key and says the outcome is unknown when the check cannot be made either', async () => {
    const configDir = tempConfigDir();
    sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'reset', afterProcessing: true } });
    sandbox.server.faults.add({ method: 'GET', path: /\/api_keys$/, fault: { kind: 'status', status: 503 }, times: 4 });
    const result = await runKeys(sandbox, ['create', '--name', 'unsure', '--retries', '0'], { configDir });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/outcome unknown: the create request for key "unsure~[0-9a-f]{8}" was sent/);
    const [kept] = keyFiles(configDir);
    expect(result.stderr).toContain(`the private key is kept at ${join(configDir, 'keys', kept!)}`);
    expect(fileMode(join(configDir, 'keys', kept!))).toBe(0o600);
    expect(result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  });

  it('refuses --out - (create keeps the key in a file) before any request', async () => {
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['create', '--name', 'x', '--out', '-']);
    expect(result.exitCode).toBe(2);
    expect(seen()).toEqual([]);
  });
});

describe('keys create --public-key', () => {
  it('uploads a public key file as it is; no private key file', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const file = pemFile('public.pem', pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const result = await runKeys(sandbox, ['create', '--name', 'hsm', '--public-key', file, '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.private_key_file).toBeNull();
    expect(JSON.parse(sandbox.server.requests.at(-1)!.body).public_key).toBe(readFileSync(file, 'utf8'));
  });

  it('given a private key, uploads its public half, says so, and can --use it', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const file = pemFile('private.pem', pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    const configDir = tempConfigDir();
    const result = await runKeys(sandbox, ['create', '--name', 'mine', '--public-key', file, '--use', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`--public-key ${file} is a private key: uploading only its public half (RSA 2048-bit)`);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({ private_key_file: file, public_key_from_private_key: true, used: 'default' });
    const upload = sandbox.server.requests.at(-1)!.body;
    expect(upload).not.toMatch(/PRIVATE KEY/);
    expect(JSON.parse(upload).public_key).toBe(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    // the profile now signs with it
    const list = await runKeys(sandbox, ['list'], { configDir, env: { TRIDENT_KEY_ID: undefined, TRIDENT_PRIVATE_KEY_FILE: undefined } });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(sandbox.server.requests.at(-1)!.headers['kalshi-access-key']).toBe(output.api_key);
  });

  it('reads the key from stdin with -, Ed25519 included', async () => {
    const pem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const result = await runKeys(sandbox, ['create', '--name', 'ed', '--public-key', '-', '-o', 'json'], { input: pem });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(sandbox.server.requests.at(-1)!.body).public_key).toBe(pem);
  });

  it('refuses certificates, small RSA keys, DSA keys, --use without a private key file and --out, before any request', async () => {
    const cert = pemFile('cert.pem', selfSignedCertificatePem());
    const small = pemFile(
      'small.pem',
      generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const dsa = pemFile(
      'dsa.pem',
      generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const publicOnly = pemFile(
      'pub-only.pem',
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const cases: Array<[string[], string]> = [
      [['--public-key', cert], 'is a certificate, not a public key'],
      [['--public-key', small], 'RSA key of 1024 bits'],
      [['--public-key', dsa], 'DSA'],
      [['--public-key', publicOnly, '--use'], '--use needs the private key in a file'],
      [['--public-key', publicOnly, '--out', join(work, 'x.pem')], '--out and --bits are for a key pair made here'],
      [['--public-key', join(work, 'missing.pem')], 'cannot read --public-key'],
    ];
    const seen = requestsFrom(sandbox);
    const results = await Promise.all(cases.map(([args]) => runKeys(sandbox, ['create', '--name', 'bad', ...args])));
    results.forEach((result, index) => {
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(cases[index]![1]);
    });
    expect(seen()).toEqual([]);
  });
});
