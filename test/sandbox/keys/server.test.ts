import { constants, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startKeysSandbox, type KeysSandbox, type SandboxApiKey } from '../../../src/sandbox/keys/server.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const BASE = '/trade-api/v2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let clock = T0;
let dir: string;
let sb: KeysSandbox;
let boot: Signer;

interface Signer {
  id: string;
  key: KeyObject;
}

interface CallOptions {
  as?: Signer;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
  ts?: string;
  /** What gets signed in place of the request's pathname. */
  signedPath?: string;
  signedMethod?: string;
  padding?: 'pss' | 'pkcs1';
  omit?: string;
  signature?: string;
}

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

function signMessage(key: KeyObject, message: string, padding: 'pss' | 'pkcs1' = 'pss'): string {
  const data = Buffer.from(message);
  if (key.asymmetricKeyType === 'ed25519') return sign(null, data, key).toString('base64');
  const options =
    padding === 'pss'
      ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : { key, padding: constants.RSA_PKCS1_PADDING };
  return sign('sha256', data, options).toString('base64');
}

async function call(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Reply> {
  const as = options.as ?? boot;
  const url = new URL(sb.url + pathAndQuery);
  const ts = options.ts ?? String(clock);
  const message = ts + (options.signedMethod ?? method) + (options.signedPath ?? url.pathname);
  const headers: Record<string, string> = {
    'KALSHI-ACCESS-KEY': as.id,
    'KALSHI-ACCESS-TIMESTAMP': ts,
    'KALSHI-ACCESS-SIGNATURE': options.signature ?? signMessage(as.key, message, options.padding),
  };
  if (options.omit) delete headers[options.omit];
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

function rsaPair(bits = 2048): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

function ed25519Pair(): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A key registered through the control API, for restricted keys the service would not mint via REST. */
function addSigner(input: { scopes?: string[]; subaccount?: number; fcmSubtraderId?: string } = {}): Signer {
  const { privateKey, publicKeyPem } = ed25519Pair();
  const record = sb.control.addKey({ name: 'test', publicKeyPem, ...input });
  return { id: record.api_key, key: privateKey };
}

const authBody = (details: string) => ({ error: { code: 'authentication_error', message: 'authentication_error', details } });

async function startSandbox(): Promise<void> {
  clock = T0;
  dir = mkdtempSync(join(tmpdir(), 'trident-keys-'));
  sb = await startKeysSandbox({ dir, now: () => clock, fcmSubtradersWithoutCap: ['u1_nocap'] });
  boot = { id: sb.bootstrap.keyId, key: createPrivateKey(readFileSync(sb.bootstrap.privateKeyFile, 'utf8')) };
}

async function stopSandbox(): Promise<void> {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
}

/** A fresh sandbox per test, except where every test leaves the state as it found it (keygen is slow). */
function useSandbox(per: 'test' | 'suite'): void {
  if (per === 'test') {
    beforeEach(startSandbox);
    afterEach(stopSandbox);
  } else {
    beforeAll(startSandbox);
    afterAll(stopSandbox);
    beforeEach(() => {
      clock = T0;
    });
  }
}

describe('bootstrap', () => {
  useSandbox('test');
  it('writes an account-wide read/write key as PKCS#1 PEM, mode 0600, and nothing else', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/trade-api\/v2$/);
    expect(sb.bootstrap.privateKeyFile).toBe(join(dir, 'bootstrap-key.pem'));
    expect(statSync(sb.bootstrap.privateKeyFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['bootstrap-key.pem']);
    const pem = readFileSync(sb.bootstrap.privateKeyFile, 'utf8');
    expect(pem.startsWith('-----BEGIN RSA PRIVATE KEY-----')).toBe(true);
    const derived = createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();
    expect(derived).toBe(sb.bootstrap.publicKeyPem);
    expect(createPublicKey(pem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(sb.bootstrap.keyId).toMatch(UUID);
    expect(sb.control.listKeys()).toStrictEqual([
      {
        api_key: sb.bootstrap.keyId,
        name: 'sandbox-bootstrap',
        scopes: ['read', 'write'],
        created_ts: '2026-11-21T10:00:00.000Z',
        subaccount: null,
      },
    ]);
  });

  it('creates a missing directory with mode 0700', async () => {
    const nested = join(dir, 'a', 'b');
    const other = await startKeysSandbox({ dir: nested, basePath: '/v9/', port: 0 });
    try {
      expect(statSync(nested).mode & 0o777).toBe(0o700);
      expect(statSync(join(nested, 'bootstrap-key.pem')).mode & 0o777).toBe(0o600);
      expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v9$/);
    } finally {
      await other.close();
    }
  });
});

describe('authentication', () => {
  useSandbox('suite');
  it('accepts a correctly signed request', async () => {
    const reply = await call('GET', '/api_keys');
    expect(reply.status).toBe(200);
  });

  it.each(['KALSHI-ACCESS-KEY', 'KALSHI-ACCESS-TIMESTAMP', 'KALSHI-ACCESS-SIGNATURE'])('refuses a request without %s', async (name) => {
    const reply = await call('GET', '/api_keys', { omit: name });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(authBody('MISSING_AUTH_HEADERS'));
  });

  it('refuses an unknown key id', async () => {
    const reply = await call('GET', '/api_keys', { as: { id: randomUUID(), key: boot.key } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('authentication_error');
  });

  it('authenticates before routing', async () => {
    const reply = await call('GET', '/nowhere', { omit: 'KALSHI-ACCESS-SIGNATURE' });
    expect(reply.status).toBe(401);
  });

  describe('classic client mistakes get INCORRECT_API_KEY_SIGNATURE', () => {
    it('PKCS#1 v1.5 padding instead of PSS', async () => {
      const reply = await call('GET', '/api_keys', { padding: 'pkcs1' });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    });

    it('signing the query string', async () => {
      const path = '/api_keys?fcm_subtrader_id=u1_a';
      const wrong = await call('GET', path, { signedPath: `${BASE}${path}` });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
      expect((await call('GET', path)).status).toBe(200);
    });

    it('leaving the base path out of the signed path', async () => {
      const reply = await call('GET', '/api_keys', { signedPath: '/api_keys' });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    });

    it('a timestamp in seconds', async () => {
      const reply = await call('GET', '/api_keys', { ts: String(Math.floor(clock / 1000)) });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    });

    it('a doubled base path in the URL', async () => {
      const reply = await call('GET', `${BASE}/api_keys`, { signedPath: `${BASE}/api_keys` });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    });
  });

  it('refuses a signature for another method, by another key, or that is not base64', async () => {
    expect((await call('POST', '/api_keys/generate', { signedMethod: 'GET', body: { name: 'x' } })).status).toBe(401);
    expect((await call('GET', '/api_keys', { as: { id: boot.id, key: rsaPair().privateKey } })).status).toBe(401);
    const garbage = await call('GET', '/api_keys', { signature: 'not base64!' });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    expect(sb.control.listKeys().map((k) => k.name)).not.toContain('x');
  });

  it('refuses a timestamp that is not a decimal number', async () => {
    const reply = await call('GET', '/api_keys', { ts: new Date(clock).toISOString() });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('authentication_error');
  });

  it('checks the timestamp against the clock with a tolerance of 30 s either way', async () => {
    expect((await call('GET', '/api_keys', { ts: String(clock - 29_000) })).status).toBe(200);
    expect((await call('GET', '/api_keys', { ts: String(clock + 29_000) })).status).toBe(200);
    for (const ts of [clock - 31_000, clock + 31_000]) {
      const reply = await call('GET', '/api_keys', { ts: String(ts) });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(authBody('header_timestamp_expired'));
    }
    const signedAt = String(clock);
    clock += 60_000;
    expect((await call('GET', '/api_keys', { ts: signedAt })).body).toEqual(authBody('header_timestamp_expired'));
  });

  it('accepts an Ed25519 key for create and for signing', async () => {
    const { privateKey, publicKeyPem } = ed25519Pair();
    const created = await call('POST', '/api_keys', { body: { name: 'ed', public_key: publicKeyPem } });
    expect(created.status).toBe(201);
    const ed: Signer = { id: created.body.api_key.api_key, key: privateKey };
    const listed = await call('GET', '/api_keys', { as: ed });
    expect(listed.status).toBe(200);
    expect(listed.body.api_keys.map((k: SandboxApiKey) => k.api_key)).toContain(ed.id);
    expect((await call('GET', '/api_keys', { as: ed, signedPath: '/api_keys' })).status).toBe(401);
  });

  it('refuses a deleted key', async () => {
    const signer = addSigner();
    expect((await call('DELETE', `/api_keys/${signer.id}`)).status).toBe(204);
    const reply = await call('GET', '/api_keys', { as: signer });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('authentication_error');
  });
});

describe('clockToleranceMs', () => {
  useSandbox('test');

  it('honours clockToleranceMs', async () => {
    await sb.close();
    sb = await startKeysSandbox({ dir, now: () => clock, clockToleranceMs: 5_000 });
    boot = { id: sb.bootstrap.keyId, key: createPrivateKey(readFileSync(sb.bootstrap.privateKeyFile, 'utf8')) };
    expect((await call('GET', '/api_keys', { ts: String(clock - 4_000) })).status).toBe(200);
    expect((await call('GET', '/api_keys', { ts: String(clock - 6_000) })).body).toEqual(authBody('header_timestamp_expired'));
  });
});

describe('routes', () => {
  useSandbox('test');
  it('lists keys', async () => {
    const reply = await call('GET', '/api_keys');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toStrictEqual({
      api_keys: [
        {
          api_key: boot.id,
          name: 'sandbox-bootstrap',
          scopes: ['read', 'write'],
          created_ts: '2026-11-21T10:00:00.000Z',
          subaccount: null,
        },
      ],
    });
  });

  it('filters the list by fcm_subtrader_id and validates the filter', async () => {
    const a = addSigner({ fcmSubtraderId: 'u1_a' });
    addSigner({ fcmSubtraderId: 'u1_b' });
    const reply = await call('GET', '/api_keys?fcm_subtrader_id=u1_a');
    expect(reply.status).toBe(200);
    expect(reply.body.api_keys).toStrictEqual([
      {
        api_key: a.id,
        name: 'test',
        scopes: ['read', 'write'],
        created_ts: '2026-11-21T10:00:00.000Z',
        subaccount: null,
        fcm_subtrader_id: 'u1_a',
      },
    ]);
    expect((await call('GET', '/api_keys?fcm_subtrader_id=u1_none')).body).toEqual({ api_keys: [] });
    for (const bad of ['nounderscore', '', '_x', 'u1_']) {
      const invalid = await call('GET', `/api_keys?fcm_subtrader_id=${bad}`);
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe('invalid_parameters');
      expect(invalid.body.error.message).toContain('fcm_subtrader_id');
    }
  });

  it('creates a key from a public key with default scopes', async () => {
    clock = Date.parse('2026-12-01T08:30:00.000Z');
    const { publicKeyPem } = rsaPair();
    const reply = await call('POST', '/api_keys', { body: { name: 'ci', public_key: publicKeyPem } });
    expect(reply.status).toBe(201);
    expect(reply.body).toStrictEqual({
      api_key: {
        api_key: expect.stringMatching(UUID),
        name: 'ci',
        scopes: ['read', 'write'],
        created_ts: '2026-12-01T08:30:00.000Z',
        subaccount: null,
      },
    });
    expect(sb.control.listKeys()[1]).toStrictEqual(reply.body.api_key);
  });

  it('creates keys with scopes, a subaccount, or an FCM subtrader', async () => {
    const { publicKeyPem } = ed25519Pair();
    const readOnly = await call('POST', '/api_keys', { body: { name: 'ro', public_key: publicKeyPem, scopes: ['read'], subaccount: 0 } });
    expect(readOnly.status).toBe(201);
    expect(readOnly.body.api_key).toMatchObject({ name: 'ro', scopes: ['read'], subaccount: 0 });
    const sub63 = await call('POST', '/api_keys', {
      body: { name: 's', public_key: publicKeyPem, subaccount: 63, fcm_subtrader_id: null },
    });
    expect(sub63.body.api_key.subaccount).toBe(63);
    const fcm = await call('POST', '/api_keys', { body: { name: 'f', public_key: publicKeyPem, fcm_subtrader_id: 'u1_trader' } });
    expect(fcm.status).toBe(201);
    expect(fcm.body).toStrictEqual({
      api_key: {
        api_key: expect.stringMatching(UUID),
        name: 'f',
        scopes: ['read', 'write'],
        created_ts: '2026-11-21T10:00:00.000Z',
        subaccount: null,
        fcm_subtrader_id: 'u1_trader',
      },
    });
  });

  it('normalizes scopes and accepts a public key with surrounding whitespace', async () => {
    const reply = await call('POST', '/api_keys', {
      body: { name: 'n', public_key: `\n${rsaPair().publicKeyPem}\n\n`, scopes: ['write', 'read', 'read'] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.api_key.scopes).toEqual(['read', 'write']);
  });

  it('generates a pair, returns the private key once, and keeps only the public half', async () => {
    const reply = await call('POST', '/api_keys/generate', { body: { name: 'gen' } });
    expect(reply.status).toBe(201);
    expect(reply.body).toStrictEqual({
      api_key: {
        api_key: expect.stringMatching(UUID),
        name: 'gen',
        scopes: ['read', 'write'],
        created_ts: '2026-11-21T10:00:00.000Z',
        subaccount: null,
      },
      private_key: expect.stringMatching(/^-----BEGIN RSA PRIVATE KEY-----\n[\s\S]+-----END RSA PRIVATE KEY-----\n?$/),
    });
    const privateKey = createPrivateKey(reply.body.private_key as string);
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // The stored public half verifies the private one: a request signed with it is accepted.
    const generated: Signer = { id: reply.body.api_key.api_key, key: privateKey };
    expect((await call('GET', '/api_keys', { as: generated })).status).toBe(200);
    const message = Buffer.from('check');
    const sig = sign('sha256', message, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    expect(
      verify('sha256', message, { key: createPublicKey(privateKey), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig),
    ).toBe(true);
    // Nothing the server keeps or exposes holds the private key.
    const body = (reply.body.private_key as string).split('\n')[1]!;
    expect(JSON.stringify(sb.control.listKeys())).not.toContain(body);
    expect(JSON.stringify(sb.server.requests)).not.toContain(body);
    const listed = await call('GET', '/api_keys');
    expect(listed.text).not.toContain(body);
    expect(listed.text).not.toContain('private_key');
  });

  it('deletes a key with 204 and answers 404 after that', async () => {
    const victim = addSigner();
    const first = await call('DELETE', `/api_keys/${victim.id}`);
    expect(first.status).toBe(204);
    expect(first.text).toBe('');
    expect(sb.control.listKeys().map((k) => k.api_key)).toEqual([boot.id]);
    const second = await call('DELETE', `/api_keys/${victim.id}`);
    expect(second.status).toBe(404);
    expect(second.body).toStrictEqual({ error: { code: 'not_found', message: 'api key not found' } });
    const never = await call('DELETE', `/api_keys/${randomUUID()}`);
    expect(never.status).toBe(404);
    expect(never.body).toStrictEqual({ error: { code: 'not_found', message: 'api key not found' } });
  });

  it('answers 404 for unknown paths and 405 for other methods on known ones', async () => {
    for (const path of ['/nowhere', '/api_keys/', '/api_keys/a/b']) {
      const reply = await call('GET', path);
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
      expect(typeof reply.body.error.message).toBe('string');
    }
    const outside = await call('GET', '/../../other');
    expect(outside.status).toBe(404);
    for (const [method, path, allow] of [
      ['GET', '/api_keys/generate', 'POST'],
      ['PUT', '/api_keys', 'GET, POST'],
      ['GET', `/api_keys/${boot.id}`, 'DELETE'],
    ] as const) {
      const reply = await call(method, path);
      expect(reply.status).toBe(405);
      expect(reply.headers.get('allow')).toBe(allow);
      expect(reply.body.error.code).toBe('method_not_allowed');
    }
    expect(sb.control.listKeys()).toHaveLength(1);
  });
});

describe('validation', () => {
  useSandbox('suite');
  const rsa = rsaPair();
  const good = rsa.publicKeyPem;
  const weak = rsaPair(1024).publicKeyPem;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const pkcs8Private = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const pkcs1Private = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const pkcs1Public = createPublicKey(rsa.privateKey).export({ type: 'pkcs1', format: 'pem' }).toString();
  const certificate = (() => {
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(good);
    cert.serialNumber = '01';
    cert.validity.notBefore = new Date(T0);
    cert.validity.notAfter = new Date(T0 + 86_400_000);
    cert.setSubject([{ name: 'commonName', value: 'sandbox' }]);
    cert.setIssuer([{ name: 'commonName', value: 'sandbox' }]);
    cert.sign(forge.pki.privateKeyFromPem(pkcs1Private), forge.md.sha256.create());
    return forge.pki.certificateToPem(cert);
  })();

  type Case = [label: string, field: string, body: Record<string, unknown> | string];
  const createCases: Case[] = [
    ['body not JSON', 'JSON', 'not json'],
    ['empty body', 'JSON', ''],
    ['body an array', 'JSON', '[1]'],
    ['name missing', 'name', { public_key: good }],
    ['name empty', 'name', { name: '', public_key: good }],
    ['name blank', 'name', { name: '   ', public_key: good }],
    ['name not a string', 'name', { name: 42, public_key: good }],
    ['public_key missing', 'public_key', { name: 'n' }],
    ['public_key not a string', 'public_key', { name: 'n', public_key: 1 }],
    ['public_key garbage', 'public_key', { name: 'n', public_key: 'hello' }],
    [
      'public_key PEM-shaped garbage',
      'public_key',
      { name: 'n', public_key: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n' },
    ],
    ['public_key a PKCS#8 private key', 'public_key', { name: 'n', public_key: pkcs8Private }],
    ['public_key a PKCS#1 private key', 'public_key', { name: 'n', public_key: pkcs1Private }],
    ['public_key PKCS#1 rather than SPKI', 'public_key', { name: 'n', public_key: pkcs1Public }],
    ['public_key a certificate', 'public_key', { name: 'n', public_key: certificate }],
    ['public_key RSA 1024', 'public_key', { name: 'n', public_key: weak }],
    ['public_key EC P-256', 'public_key', { name: 'n', public_key: ec }],
    ['scopes a string', 'scopes', { name: 'n', public_key: good, scopes: 'read' }],
    ['scopes unknown', 'scopes', { name: 'n', public_key: good, scopes: ['read', 'admin'] }],
    ['scopes write without read', 'scopes', { name: 'n', public_key: good, scopes: ['write'] }],
    ['scopes empty', 'scopes', { name: 'n', public_key: good, scopes: [] }],
    ['scopes not strings', 'scopes', { name: 'n', public_key: good, scopes: [1] }],
    ['subaccount 64', 'subaccount', { name: 'n', public_key: good, subaccount: 64 }],
    ['subaccount negative', 'subaccount', { name: 'n', public_key: good, subaccount: -1 }],
    ['subaccount fractional', 'subaccount', { name: 'n', public_key: good, subaccount: 1.5 }],
    ['subaccount a string', 'subaccount', { name: 'n', public_key: good, subaccount: '3' }],
    ['subaccount with fcm_subtrader_id', 'subaccount', { name: 'n', public_key: good, subaccount: 1, fcm_subtrader_id: 'u1_a' }],
    ['fcm_subtrader_id without underscore', 'fcm_subtrader_id', { name: 'n', public_key: good, fcm_subtrader_id: 'u1a' }],
    ['fcm_subtrader_id without user id', 'fcm_subtrader_id', { name: 'n', public_key: good, fcm_subtrader_id: '_a' }],
    ['fcm_subtrader_id without suffix', 'fcm_subtrader_id', { name: 'n', public_key: good, fcm_subtrader_id: 'u1_' }],
    ['fcm_subtrader_id not a string', 'fcm_subtrader_id', { name: 'n', public_key: good, fcm_subtrader_id: 42 }],
  ];
  const generateCases: Case[] = createCases
    .filter(([, field]) => field !== 'public_key')
    .map(([label, field, body]) => [label, field, typeof body === 'string' ? body : { ...body, public_key: undefined }]);

  async function expectRejected(path: string, field: string, body: Record<string, unknown> | string): Promise<void> {
    const reply = await call('POST', path, typeof body === 'string' ? { rawBody: body } : { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_parameters');
    expect(reply.body.error.message).toContain(field);
    expect(typeof reply.body.error.details).toBe('string');
    expect(sb.control.listKeys()).toHaveLength(1);
  }

  it.each(createCases)('create: %s → 400, nothing created', async (_label, field, body) => {
    await expectRejected('/api_keys', field, body);
  });

  it.each(generateCases)('generate: %s → 400, nothing created', async (_label, field, body) => {
    await expectRejected('/api_keys/generate', field, body);
  });
});

describe('permissions', () => {
  useSandbox('test');
  it('a read-only key may list but not create, generate or delete', async () => {
    const ro = addSigner({ scopes: ['read'] });
    expect((await call('GET', '/api_keys', { as: ro })).status).toBe(200);
    const { publicKeyPem } = ed25519Pair();
    for (const [method, path, body] of [
      ['POST', '/api_keys', { name: 'x', public_key: publicKeyPem }],
      ['POST', '/api_keys/generate', { name: 'x' }],
      ['POST', '/api_keys/generate', 'not json'],
      ['DELETE', `/api_keys/${boot.id}`, undefined],
    ] as const) {
      const reply = await call(method, path, typeof body === 'string' ? { as: ro, rawBody: body } : { as: ro, body });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('insufficient_permission');
      expect(typeof reply.body.error.message).toBe('string');
      expect(typeof reply.body.error.details).toBe('string');
    }
    expect(sb.control.listKeys()).toHaveLength(2);
  });

  it('a key with write but not read is refused everywhere', async () => {
    const wo = addSigner({ scopes: ['write'] });
    expect((await call('GET', '/api_keys', { as: wo })).status).toBe(403);
    expect((await call('POST', '/api_keys/generate', { as: wo, body: { name: 'x' } })).status).toBe(403);
  });

  it('a subaccount key cannot manage API keys', async () => {
    const sub = addSigner({ subaccount: 3 });
    for (const [method, path] of [
      ['GET', '/api_keys'],
      ['POST', '/api_keys/generate'],
      ['DELETE', `/api_keys/${boot.id}`],
    ] as const) {
      const reply = await call(method, path, { as: sub, body: method === 'POST' ? { name: 'x' } : undefined });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('insufficient_permission');
    }
    expect(sb.control.listKeys()).toHaveLength(2);
  });

  it('a key bound to an FCM subtrader is denied on every endpoint', async () => {
    const generated = await call('POST', '/api_keys/generate', { body: { name: 'fcm', fcm_subtrader_id: 'u1_trader' } });
    expect(generated.status).toBe(201);
    const fcm: Signer = { id: generated.body.api_key.api_key, key: createPrivateKey(generated.body.private_key as string) };
    for (const [method, path] of [
      ['GET', '/api_keys'],
      ['POST', '/api_keys'],
      ['POST', '/api_keys/generate'],
      ['DELETE', `/api_keys/${boot.id}`],
    ] as const) {
      const reply = await call(method, path, { as: fcm, body: method === 'POST' ? { name: 'x' } : undefined });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('insufficient_permission');
    }
    expect(sb.control.listKeys()).toHaveLength(2);
  });
});

describe('warning', () => {
  useSandbox('test');
  it('create and generate for a subtrader without a margin cap still mint the key and warn', async () => {
    const created = await call('POST', '/api_keys', {
      body: { name: 'c', public_key: ed25519Pair().publicKeyPem, fcm_subtrader_id: 'u1_nocap' },
    });
    expect(created.status).toBe(201);
    expect(created.body.warning).toBe('FCM subtrader u1_nocap has no initial-margin cap; the key was still minted');
    const generated = await call('POST', '/api_keys/generate', { body: { name: 'g', fcm_subtrader_id: 'u1_nocap' } });
    expect(generated.status).toBe(201);
    expect(generated.body.warning).toContain('u1_nocap');
    expect(generated.body.private_key).toContain('PRIVATE KEY');
    const capped = await call('POST', '/api_keys/generate', { body: { name: 'g', fcm_subtrader_id: 'u1_capped' } });
    expect('warning' in capped.body).toBe(false);
    expect(sb.control.listKeys()).toHaveLength(4);
  });
});

describe('control', () => {
  useSandbox('test');
  it('rejectKey makes a key fail its signatures from then on', async () => {
    const signer = addSigner();
    expect((await call('GET', '/api_keys', { as: signer })).status).toBe(200);
    sb.control.rejectKey(signer.id);
    const reply = await call('GET', '/api_keys', { as: signer });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    expect((await call('GET', '/api_keys')).status).toBe(200);
    expect(() => sb.control.rejectKey(randomUUID())).toThrow();
  });

  it('rejectNewKeys rejects keys created or generated while on', async () => {
    sb.control.rejectNewKeys(true);
    const generated = await call('POST', '/api_keys/generate', { body: { name: 'g' } });
    expect(generated.status).toBe(201);
    const gen: Signer = { id: generated.body.api_key.api_key, key: createPrivateKey(generated.body.private_key as string) };
    expect((await call('GET', '/api_keys', { as: gen })).body).toEqual(authBody('INCORRECT_API_KEY_SIGNATURE'));
    const pair = ed25519Pair();
    const created = await call('POST', '/api_keys', { body: { name: 'c', public_key: pair.publicKeyPem } });
    const made: Signer = { id: created.body.api_key.api_key, key: pair.privateKey };
    expect((await call('GET', '/api_keys', { as: made })).status).toBe(401);
    expect((await call('GET', '/api_keys')).status).toBe(200);

    sb.control.rejectNewKeys(false);
    const later = await call('POST', '/api_keys/generate', { body: { name: 'g2' } });
    const ok: Signer = { id: later.body.api_key.api_key, key: createPrivateKey(later.body.private_key as string) };
    expect((await call('GET', '/api_keys', { as: ok })).status).toBe(200);
    expect((await call('GET', '/api_keys', { as: gen })).status).toBe(401);
  });

  it('addKey validates the PEM; listKeys is a snapshot', () => {
    expect(() => sb.control.addKey({ name: 'x', publicKeyPem: 'garbage' })).toThrow();
    expect(() => sb.control.addKey({ name: 'x', publicKeyPem: rsaPair(1024).publicKeyPem })).toThrow(/2048/);
    const record: SandboxApiKey = sb.control.addKey({ name: 'x', publicKeyPem: ed25519Pair().publicKeyPem, subaccount: 7 });
    expect(record).toStrictEqual({
      api_key: expect.stringMatching(UUID),
      name: 'x',
      scopes: ['read', 'write'],
      created_ts: '2026-11-21T10:00:00.000Z',
      subaccount: 7,
    });
    const snapshot = sb.control.listKeys();
    snapshot[0]!.scopes.push('admin');
    snapshot.pop();
    expect(sb.control.listKeys()).toHaveLength(2);
    expect(sb.control.listKeys()[0]!.scopes).toEqual(['read', 'write']);
  });

  it('addKey recreates a key with the id and creation time given (or none), which signs as any key; an id once taken is refused', async () => {
    const pair = ed25519Pair();
    const id = randomUUID();
    sb.control.addKey({ name: 'then', publicKeyPem: pair.publicKeyPem, apiKey: id, createdTs: '2025-01-02T03:04:05.678Z' });
    const undated = sb.control.addKey({ name: 'undated', publicKeyPem: pair.publicKeyPem, createdTs: null }).api_key;
    const listed = await call('GET', '/api_keys', { as: { id, key: pair.privateKey } });
    expect(listed.status).toBe(200);
    const byId = new Map((listed.body.api_keys as SandboxApiKey[]).map((key) => [key.api_key, key]));
    expect(byId.get(id)).toMatchObject({ name: 'then', created_ts: '2025-01-02T03:04:05.678Z' });
    expect(byId.get(undated)?.created_ts).toBeNull();

    expect(() => sb.control.addKey({ name: 'again', publicKeyPem: pair.publicKeyPem, apiKey: id })).toThrow(/exists/);
    expect((await call('DELETE', `/api_keys/${id}`)).status).toBe(204);
    expect(() => sb.control.addKey({ name: 'again', publicKeyPem: pair.publicKeyPem, apiKey: id })).toThrow(/exists/);
  });

  it('events lists the keys made and deleted through the API with their signer; public halves outlive their keys', async () => {
    const signer = addSigner();
    const generated = await call('POST', '/api_keys/generate', { body: { name: 'g' } });
    const pair = rsaPair();
    const created = await call('POST', '/api_keys', { as: signer, body: { name: 'c', public_key: pair.publicKeyPem } });
    const generatedId = generated.body.api_key.api_key as string;
    const createdId = created.body.api_key.api_key as string;
    const generatedPem = sb.control.publicKeyPem(generatedId);
    expect((await call('DELETE', `/api_keys/${generatedId}`, { as: signer })).status).toBe(204);
    expect((await call('DELETE', `/api_keys/${generatedId}`, { as: signer })).status).toBe(404);
    expect(sb.control.events()).toStrictEqual([
      { type: 'generate', id: generatedId, name: 'g', signer: boot.id, at: T0 },
      { type: 'create', id: createdId, name: 'c', signer: signer.id, at: T0 },
      { type: 'delete', id: generatedId, name: 'g', signer: signer.id, at: T0 },
    ]);
    expect(sb.control.publicKeyPem(generatedId)).toBeUndefined();
    expect(sb.control.publicKeyPemEver(generatedId)).toBe(generatedPem);
    expect(sb.control.publicKeyPemEver(createdId)).toBe(pair.publicKeyPem);
    expect(sb.control.publicKeyPemEver(randomUUID())).toBeUndefined();
  });
});

describe('faults', () => {
  useSandbox('test');
  it('an injected 429 with Retry-After answers instead of the service and mints nothing', async () => {
    sb.server.faults.add({
      method: 'POST',
      path: `${BASE}/api_keys/generate`,
      fault: { kind: 'status', status: 429, headers: { 'retry-after': '2' }, body: { error: 'too many requests' } },
    });
    const limited = await call('POST', '/api_keys/generate', { body: { name: 'g' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.body).toEqual({ error: 'too many requests' });
    expect(sb.control.listKeys()).toHaveLength(1);
    expect((await call('POST', '/api_keys/generate', { body: { name: 'g' } })).status).toBe(201);
    expect(sb.control.listKeys()).toHaveLength(2);
  });

  it('a hang after processing leaves the generated key minted', async () => {
    sb.server.faults.add({ method: 'POST', path: `${BASE}/api_keys/generate`, fault: { kind: 'hang', afterProcessing: true } });
    const applied = sb.server.faults.next();
    const pending = call('POST', '/api_keys/generate', { body: { name: 'lost' } });
    pending.catch(() => undefined);
    await applied;
    expect(sb.control.listKeys().map((k) => k.name)).toEqual(['sandbox-bootstrap', 'lost']);
    sb.server.faults.clear();
    await expect(pending).rejects.toThrow();
  });

  it('idle waits for a request delayed before processing: its key is minted by then', async () => {
    await sb.server.idle();
    sb.server.faults.add({ method: 'POST', path: `${BASE}/api_keys/generate`, fault: { kind: 'delay', ms: 300 } });
    const applied = sb.server.faults.next();
    const pending = call('POST', '/api_keys/generate', { body: { name: 'late' } });
    await applied;
    expect(sb.control.listKeys().map((k) => k.name)).toEqual(['sandbox-bootstrap']);
    await sb.server.idle();
    expect(sb.control.listKeys().map((k) => k.name)).toEqual(['sandbox-bootstrap', 'late']);
    expect((await pending).status).toBe(201);
  });
});
