import { constants, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { MockAgent } from 'undici';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/core/http/client.js';
import { KeysClient } from '../../../src/keys/client.js';
import { keysBaseUrl } from '../../../src/keys/connection.js';
import { explainRefusal } from '../../../src/keys/refusals.js';
import { ExitCode, TridentError } from '../../../src/core/errors.js';
import { rejectionOf } from './fixtures.js';

const ORIGIN = 'https://exchange.test';
const BASE = '/trade-api/v2';

let rsa: { privateKey: KeyObject; publicKey: KeyObject };
let agent: MockAgent;
let clock: number;
let client: KeysClient;

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
let seen: Seen[];

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
});

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  clock = 1_700_000_000_000;
  seen = [];
  const http = createHttpClient({ serviceName: 'keys service', dispatcher: agent, sleep: async () => undefined, random: () => 0 });
  client = new KeysClient(
    http,
    keysBaseUrl(`${ORIGIN}/trade-api/v2/`),
    { keyId: 'me', privateKey: rsa.privateKey, source: 'key file /k.pem' },
    () => (clock += 1000),
  );
});

afterEach(async () => {
  await agent.close();
});

/** Answers `status` with `body` and records what was sent. */
function answer(method: string, path: string, status: number, body?: unknown, times = 1) {
  agent
    .get(ORIGIN)
    .intercept({ method, path: (p) => p.split('?')[0] === `${BASE}${path}` })
    .reply(status, (opts) => {
      const url = new URL(opts.path, ORIGIN);
      seen.push({
        method: opts.method,
        path: url.pathname + url.search,
        headers: opts.headers as Record<string, string>,
        body: opts.body as string | undefined,
      });
      return body === undefined ? '' : JSON.stringify(body);
    })
    .times(times);
}

function signatureValid(request: Seen): boolean {
  const path = request.path.split('?')[0];
  const message = `${request.headers['KALSHI-ACCESS-TIMESTAMP']}${request.method}${path}`;
  return verify(
    'sha256',
    Buffer.from(message),
    { key: rsa.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
    Buffer.from(request.headers['KALSHI-ACCESS-SIGNATURE']!, 'base64'),
  );
}

const FULL_KEY = { api_key: 'k1', name: 'one', scopes: ['read'], created_ts: '2026-01-02T03:04:05Z', subaccount: 3 };
/** FULL_KEY as trident reads it: with the name as given beside the service's. */
const AS_LISTED = { ...FULL_KEY, given_name: 'one' };

describe('list', () => {
  it('reads the ApiKey shape and signs the full path without the query', async () => {
    answer('GET', '/api_keys', 200, { api_keys: [FULL_KEY] });
    expect(await client.list({ fcmSubtraderId: 'u1_desk' })).toEqual([AS_LISTED]);
    expect(seen[0]!.path).toBe('/trade-api/v2/api_keys?fcm_subtrader_id=u1_desk');
    expect(seen[0]!.headers['KALSHI-ACCESS-KEY']).toBe('me');
    expect(signatureValid(seen[0]!)).toBe(true);
  });

  it("normalizes the public service's shape: api_key_id, no created time, fcm subtrader kept", async () => {
    answer('GET', '/api_keys', 200, {
      api_keys: [
        { api_key_id: 'p1', name: 'pub', scopes: ['read', 'write'] },
        { api_key_id: 'p2', name: 'fcm', scopes: ['read', 'write'], subaccount: null, fcm_subtrader_id: 'u1_a' },
      ],
    });
    expect(await client.list()).toEqual([
      { api_key: 'p1', name: 'pub', given_name: 'pub', scopes: ['read', 'write'], created_ts: null, subaccount: null },
      {
        api_key: 'p2',
        name: 'fcm',
        given_name: 'fcm',
        scopes: ['read', 'write'],
        created_ts: null,
        subaccount: null,
        fcm_subtrader_id: 'u1_a',
      },
    ]);
  });

  it('refuses an answer without a list (exit 8)', async () => {
    answer('GET', '/api_keys', 200, { keys: [] });
    expect((await rejectionOf(client.list())).exitCode).toBe(8);
  });

  it('signs every retry afresh', async () => {
    answer('GET', '/api_keys', 503, { error: 'busy' });
    answer('GET', '/api_keys', 200, { api_keys: [] });
    await client.list();
    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers['KALSHI-ACCESS-TIMESTAMP']).not.toBe(seen[1]!.headers['KALSHI-ACCESS-TIMESTAMP']);
    expect(seen.every(signatureValid)).toBe(true);
  });
});

describe('create', () => {
  it('posts JSON and reads a nested answer with its warning', async () => {
    answer('POST', '/api_keys', 201, { api_key: FULL_KEY, warning: 'no cap' });
    const result = await client.create({ name: 'one', scopes: ['read'], subaccount: 3, publicKeyPem: 'PEM' });
    expect(result).toEqual({ apiKey: AS_LISTED, warning: 'no cap' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body!)).toEqual({ name: 'one', scopes: ['read'], subaccount: 3, public_key: 'PEM' });
    expect(signatureValid(seen[0]!)).toBe(true);
  });

  it("fills the public service's flat answer from the request", async () => {
    answer('POST', '/api_keys', 201, { api_key_id: 'flat1' });
    const result = await client.create({ name: 'n', scopes: ['read', 'write'], fcmSubtraderId: 'u1_a', publicKeyPem: 'PEM' });
    expect(result).toEqual({
      apiKey: {
        api_key: 'flat1',
        name: 'n',
        given_name: 'n',
        scopes: ['read', 'write'],
        created_ts: null,
        subaccount: null,
        fcm_subtrader_id: 'u1_a',
      },
    });
  });

  it('reports an answer without a key id (exit 8)', async () => {
    answer('POST', '/api_keys', 201, { ok: true });
    expect((await rejectionOf(client.create({ name: 'n', publicKeyPem: 'PEM' }))).message).toContain('no key id');
  });

  it('never repeats a POST whose answer never came, and says its outcome is unknown', async () => {
    agent.enableCallHistory();
    agent
      .get(ORIGIN)
      .intercept({ method: 'POST', path: `${BASE}/api_keys` })
      .replyWithError(new Error('socket hang up'))
      .times(5);
    const error = await rejectionOf(client.create({ name: 'n', publicKeyPem: 'PEM' }));
    expect(error.code).toBe('UNKNOWN_OUTCOME');
    expect(agent.getCallHistory()?.calls()).toHaveLength(1);
  });
});

describe('generate', () => {
  it('reads a nested answer', async () => {
    answer('POST', '/api_keys/generate', 201, { api_key: FULL_KEY, private_key: 'SECRET PEM' });
    expect(await client.generate({ name: 'one' })).toEqual({ apiKey: AS_LISTED, privateKeyPem: 'SECRET PEM' });
    expect(seen[0]!.path).toBe('/trade-api/v2/api_keys/generate');
    expect(JSON.parse(seen[0]!.body!)).toEqual({ name: 'one' });
  });

  it("reads the public service's flat answer with key_type and warning", async () => {
    answer('POST', '/api_keys/generate', 201, { api_key_id: 'g1', private_key: 'SECRET PEM', key_type: 'rsa', warning: 'w' });
    expect(await client.generate({ name: 'n', scopes: ['read'] })).toEqual({
      apiKey: { api_key: 'g1', name: 'n', given_name: 'n', scopes: ['read'], created_ts: null, subaccount: null },
      privateKeyPem: 'SECRET PEM',
      warning: 'w',
    });
  });

  it('reports a minted key that came without its private key', async () => {
    answer('POST', '/api_keys/generate', 201, { api_key_id: 'g2' });
    const error = await rejectionOf(client.generate({ name: 'n' }));
    expect(error.exitCode).toBe(8);
    expect(error.hint).toContain('trident keys delete g2');
  });
});

describe('delete', () => {
  it('answers deleted on 204, not found on 404', async () => {
    answer('DELETE', '/api_keys/k1', 204);
    answer('DELETE', '/api_keys/k2', 404, { error: { code: 'not_found', message: 'api key not found' } });
    expect(await client.delete('k1')).toBe('deleted');
    expect(await client.delete('k2')).toBe('not found');
    expect(signatureValid(seen[0]!)).toBe(true);
  });

  it('calls a 404 after a retried delete "already deleted"', async () => {
    answer('DELETE', '/api_keys/k3', 502, { error: 'bad gateway' });
    answer('DELETE', '/api_keys/k3', 404, { error: { code: 'not_found', message: 'api key not found' } });
    expect(await client.delete('k3')).toBe('already deleted');
  });

  it('escapes the id in the path', async () => {
    answer('DELETE', '/api_keys/a%3Ab', 204);
    expect(await client.delete('a:b')).toBe('deleted');
  });

  it('refuses, sending nothing, an id that could change the path: ".", "..", "a/b", "%2e%2e", "a\\b", "a?b", "a#b", ""', async () => {
    for (const id of ['.', '..', 'a/b', '%2e%2e', 'a\\b', 'a?b', 'a#b', '']) {
      const error = await rejectionOf(client.delete(id));
      expect(error.exitCode, id).toBe(2);
      expect(error.message).toMatch(/^refusing to delete key ".*": it (is not a key id|holds a character a key id cannot have)/);
    }
  });
});

describe('refusals', () => {
  const refused = (details: string) => ({ error: { code: 'authentication_error', message: 'authentication_error', details } });

  it('exits 4 with the service code and a hint naming the key file', async () => {
    answer('GET', '/api_keys', 401, refused('INCORRECT_API_KEY_SIGNATURE'));
    const error = await rejectionOf(client.list());
    expect(error).toMatchObject({ exitCode: 4, status: 401, code: 'INCORRECT_API_KEY_SIGNATURE' });
    expect(error.message).toBe('keys service answered 401: INCORRECT_API_KEY_SIGNATURE');
    expect(error.hint).toContain('key file /k.pem is the private key of key me');
  });

  it('points at the clock for an expired timestamp', async () => {
    answer('GET', '/api_keys', 401, refused('header_timestamp_expired'));
    expect((await rejectionOf(client.list())).hint).toContain("machine's clock");
  });

  it('explains 403: scope, subaccount, FCM subtrader', async () => {
    answer('POST', '/api_keys/generate', 403, { error: { code: 'insufficient_permission', message: 'no', details: 'SUBACCOUNT_KEY' } });
    const error = await rejectionOf(client.generate({ name: 'n' }));
    expect(error.exitCode).toBe(4);
    expect(error.hint).toMatch(/write scope.*subaccount.*FCM subtrader/);
  });

  it('blames environments for an unknown key only at one of the exchange environments', () => {
    const unknown = new TridentError(ExitCode.auth, 'keys service answered 401: INCORRECT_API_KEY', {
      status: 401,
      code: 'INCORRECT_API_KEY',
    });
    const signer = { keyId: 'me', privateKey: rsa.privateKey, source: 'key file /k.pem' };
    const hintAt = (url: string) => (explainRefusal(unknown, signer, new URL(url)) as TridentError).hint;
    expect(hintAt('https://demo-api.kalshi.co/trade-api/v2')).toBe(
      'key me is unknown to the demo environment: keys work only in the environment that issued them; a production key needs --url production (https://external-api.kalshi.com/trade-api/v2)',
    );
    expect(hintAt('https://api.elections.kalshi.com/trade-api/v2')).toMatch(
      /^key me is unknown to the production environment: .* a demo key needs --url demo \(https:\/\/external-api\.demo\.kalshi\.co\/trade-api\/v2\)$/,
    );
    for (const url of ['https://exchange.test/trade-api/v2', 'http://127.0.0.1:8700/trade-api/v2']) {
      expect(hintAt(url)).toBe(
        'key me is unknown to this service: it may have been deleted, or belong to another service; check --key-id and --url',
      );
    }
  });

  it('leaves other errors alone', async () => {
    answer('POST', '/api_keys', 400, { msg: 'bad name' });
    const error = await rejectionOf(client.create({ name: 'n', publicKeyPem: 'PEM' }));
    expect(error).toMatchObject({ exitCode: 6, message: 'keys service answered 400: bad name', hint: undefined });
  });
});
