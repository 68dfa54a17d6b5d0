// The commands' run() with a Context of our own: fake terminal streams, real files, an HTTP mock. For what the
// sandbox cannot stage: a storing failure after the service minted a key, and answers typed at a prompt.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import { testContext } from '../../helpers/context.js';
import * as del from '../../../src/keys/commands/delete.js';
import * as generate from '../../../src/keys/commands/generate.js';
import { rejectionOf } from './fixtures.js';

const ORIGIN = 'https://exchange.test';
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const MINTED_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();

let agent: MockAgent;
let dir: string;
let stdout: string;
let stderr: string;

function context(options: { tty?: boolean; stdin?: PassThrough } = {}): Context {
  return testContext({
    globals: { output: 'json' },
    configDir: join(dir, 'config'),
    env: { TRIDENT_KEYS_URL: ORIGIN, TRIDENT_KEY_ID: 'me', TRIDENT_PRIVATE_KEY: PEM },
    stdin: options.stdin ?? new PassThrough(),
    stdinTTY: options.tty ?? false,
    stderrTTY: options.tty ?? false,
    dispatcher: agent,
    http: { sleep: async () => undefined },
    onWrite: (text, stream) => (stream === 'stdout' ? (stdout += text) : (stderr += text)),
  }).ctx;
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  dir = mkdtempSync(join(tmpdir(), 'trident-keys-run-'));
  stdout = '';
  stderr = '';
});
afterEach(() => agent.close());

/** The name a request sent: the name asked for with the request's tag. */
const sentName = (body: unknown) => (JSON.parse(String(body)) as { name: string }).name;

describe('generate when the private key cannot be stored', () => {
  const out = () => join(dir, 'key.pem');
  /** The file appears between the preflight and the write: the race the preflight cannot close. */
  function mintAndRace() {
    agent
      .get(ORIGIN)
      .intercept({ method: 'POST', path: '/trade-api/v2/api_keys/generate' })
      .reply(201, () => {
        writeFileSync(out(), 'somebody else');
        return JSON.stringify({ api_key_id: 'g1', private_key: MINTED_PEM });
      });
  }

  it('deletes the minted key on the service and reports both facts', async () => {
    mintAndRace();
    agent.get(ORIGIN).intercept({ method: 'DELETE', path: '/trade-api/v2/api_keys/g1' }).reply(204, '');
    const error = await rejectionOf(generate.run(context(), { name: 'raced', out: out() }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      `could not store the private key of the new key g1 at ${out()} (${out()} already exists); the key was deleted on the service again`,
    );
    expect(agent.pendingInterceptors()).toEqual([]);
    expect(readFileSync(out(), 'utf8')).toBe('somebody else');
    expect(stdout).toBe('');
    expect(stderr).not.toContain('PRIVATE KEY');
  });

  it('says how to delete the key by hand when that delete fails too', async () => {
    mintAndRace();
    agent.get(ORIGIN).intercept({ method: 'DELETE', path: '/trade-api/v2/api_keys/g1' }).reply(500, { error: 'down' }).times(4);
    const error = await rejectionOf(generate.run(context(), { name: 'raced', out: out() }));
    expect(error.message).toContain('and deleting that key on the service failed too: keys service answered 500: down');
    expect(error.hint).toBe('nobody holds its private key: delete it with trident keys delete g1');
    expect(stdout).toBe('');
  });
});

describe('delete at a terminal', () => {
  it('asks, and deletes on yes', async () => {
    agent.get(ORIGIN).intercept({ method: 'DELETE', path: '/trade-api/v2/api_keys/k1' }).reply(204, '');
    const stdin = new PassThrough();
    stdin.write('y\n');
    expect(await del.run(context({ tty: true, stdin }), {}, ['k1'])).toBe(0);
    expect(stderr).toContain('Delete key k1? [y/N]');
    expect(JSON.parse(stdout)).toEqual([{ api_key: 'k1', deleted: true, result: 'deleted' }]);
  });

  it('sends nothing and exits 3 on no', async () => {
    const stdin = new PassThrough();
    stdin.write('n\n');
    const error = await rejectionOf(del.run(context({ tty: true, stdin }), {}, ['k1', 'k2']));
    expect(error.exitCode).toBe(3);
    expect(stderr).toContain('Delete 2 keys (k1, k2)? [y/N]');
    expect(stdout).toBe('');
  });
});

describe('generate to the default path', () => {
  it('stores under <config dir>/keys/<api_key>.pem', async () => {
    agent
      .get(ORIGIN)
      .intercept({ method: 'POST', path: '/trade-api/v2/api_keys/generate' })
      .reply(
        201,
        JSON.stringify({
          api_key: { api_key: 'id:7', name: 'n', scopes: ['read', 'write'], created_ts: 't', subaccount: null },
          private_key: MINTED_PEM,
        }),
      );
    await generate.run(context(), { name: 'n' });
    const file = join(dir, 'config', 'keys', 'id_7.pem');
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(stdout).private_key_file).toBe(file);
  });

  it('refuses a key id from the service that would change a path: nothing stored, nothing deleted, every candidate named', async () => {
    const hostile = { api_key: 'id/../..', name: 'n', scopes: ['read', 'write'], created_ts: 't', subaccount: null };
    agent
      .get(ORIGIN)
      .intercept({ method: 'POST', path: '/trade-api/v2/api_keys/generate' })
      .reply(201, ({ body }) => {
        hostile.name = sentName(body);
        return JSON.stringify({ api_key: hostile, private_key: MINTED_PEM });
      });
    agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/trade-api/v2/api_keys' })
      .reply(200, () => ({ api_keys: [hostile] }));
    const error = await rejectionOf(generate.run(context(), { name: 'n' }));
    expect(error.exitCode).toBe(8);
    expect(hostile.name).toMatch(/^n~[0-9a-f]{8}$/);
    expect(error.message).toMatch(
      /^outcome unknown: the generate request for key "n~[0-9a-f]{8}" failed \(the keys service answered 201 with a key id that holds a character .*\); a check found: outcome unknown for key id\/\.\.\/\.\. \(named "n~[0-9a-f]{8}"\), which trident cannot prove its own, so it was not deleted$/,
    );
    expect(agent.pendingInterceptors()).toEqual([]);
    expect(readdirSync(join(dir, 'config', 'keys'))).toEqual([]);
    expect(readdirSync(join(dir, 'config', 'pending'))).toEqual([]);
  });
});
