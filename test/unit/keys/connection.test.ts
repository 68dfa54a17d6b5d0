import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../helpers/context.js';
import { joinUrl } from '../../../src/core/http/url.js';
import { keysBaseUrl, resolveConnection } from '../../../src/keys/connection.js';
import { rejectionOf, thrownBy } from './fixtures.js';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

function context(env: NodeJS.ProcessEnv, stderr: string[] = []) {
  return testContext({ env, onWrite: (text) => stderr.push(text) }).ctx;
}

describe('keysBaseUrl', () => {
  it('never doubles the base path, whatever the slashes', () => {
    for (const value of [
      'https://exchange.test',
      'https://exchange.test/',
      'https://exchange.test/trade-api/v2',
      'https://exchange.test/trade-api/v2/',
      'https://exchange.test/trade-api/v2//',
    ]) {
      expect(joinUrl(keysBaseUrl(value), 'api_keys').href).toBe('https://exchange.test/trade-api/v2/api_keys');
      expect(joinUrl(keysBaseUrl(value), '/api_keys/generate').pathname).toBe('/trade-api/v2/api_keys/generate');
    }
  });

  it('keeps a base path of its own', () => {
    expect(joinUrl(keysBaseUrl('https://proxy.test/exchange/trade-api/v2/'), 'api_keys').pathname).toBe('/exchange/trade-api/v2/api_keys');
  });

  it('accepts http:// only for loopback hosts', () => {
    for (const value of ['http://127.0.0.1:9000/trade-api/v2', 'http://localhost:9000', 'http://[::1]:9000/']) {
      expect(keysBaseUrl(value).protocol).toBe('http:');
    }
    const error = thrownBy(() => keysBaseUrl('http://exchange.test/trade-api/v2'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('clear text');
  });

  it('refuses what is not a base URL', () => {
    for (const value of ['exchange.test', 'ftp://exchange.test', 'https://exchange.test/trade-api/v2?x=1'])
      expect(thrownBy(() => keysBaseUrl(value)).exitCode).toBe(2);
  });
});

describe('resolveConnection', () => {
  const base = { TRIDENT_KEYS_URL: 'https://exchange.test', TRIDENT_KEY_ID: 'env-key' };

  it('needs a key id and a private key: exit 4 with a hint naming the setting', async () => {
    const noId = await rejectionOf(resolveConnection(context({ TRIDENT_KEYS_URL: 'https://exchange.test' }), {}));
    expect(noId.exitCode).toBe(4);
    expect(noId.hint).toContain('trident config set keys.keyId');
    const noKey = await rejectionOf(resolveConnection(context(base), {}));
    expect(noKey.exitCode).toBe(4);
    expect(noKey.hint).toContain('trident config set keys.privateKeyFile');
  });

  it('needs a URL: exit 2 with a hint', async () => {
    const error = await rejectionOf(resolveConnection(context({}), {}));
    expect(error.exitCode).toBe(2);
    expect(error.hint).toContain('trident config set keys.url');
  });

  it('reads the PEM from TRIDENT_PRIVATE_KEY, escaped \\n and all', async () => {
    const connection = await resolveConnection(context({ ...base, TRIDENT_PRIVATE_KEY: pem.trim().replace(/\n/g, '\\n') }), {});
    expect(connection.signer).toMatchObject({ keyId: 'env-key', source: 'TRIDENT_PRIVATE_KEY' });
    expect(connection.baseUrl.href).toBe('https://exchange.test/trade-api/v2');
  });

  it('prefers flags to the environment, and a key file to the PEM in the environment', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-unit-')), 'k.pem');
    writeFileSync(file, pem, { mode: 0o600 });
    const ctx = context({ ...base, TRIDENT_PRIVATE_KEY: 'not used' });
    const connection = await resolveConnection(ctx, { keyId: 'flag-key', privateKey: file, url: 'https://other.test/trade-api/v2/' });
    expect(connection.signer).toMatchObject({ keyId: 'flag-key', source: `key file ${file}` });
    expect(connection.baseUrl.href).toBe('https://other.test/trade-api/v2');
  });

  it('says when the key file cannot be read (exit 4), and warns when others can read it', async () => {
    const missing = await rejectionOf(resolveConnection(context(base), { privateKey: '/nonexistent/k.pem' }));
    expect(missing.exitCode).toBe(4);
    expect(missing.message).toBe('cannot read private key file /nonexistent/k.pem: ENOENT');
    const file = join(mkdtempSync(join(tmpdir(), 'trident-unit-')), 'k.pem');
    writeFileSync(file, pem);
    chmodSync(file, 0o644);
    const stderr: string[] = [];
    await resolveConnection(context(base, stderr), { privateKey: file });
    expect(stderr.join('')).toContain('can be read by other users (mode 644)');
  });
});
