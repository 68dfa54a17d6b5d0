// The keys service misbehaving under the built CLI. A POST is repeated only after a 429 or a connection never
// made; a generate whose answer is lost is followed by a check that finds and deletes the key it made (its
// private half never arrived); and after every failed generate or create the keys dir holds nothing but what
// the command names, and the service holds no key that nobody holds. Each case has a sandbox of its own, so the
// cases run concurrently.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../../src/sandbox/http/faults.js';
import { untagged } from '../../src/keys/mint/tag.js';
import { runFaultCase, times, type FaultCase } from './fault-case.js';
import { closedPort, entries, envFor, errorOf, trident, withServices, type Run, type Services } from './harness.js';

const LIST = 'GET /trade-api/v2/api_keys';
const GENERATE = 'POST /trade-api/v2/api_keys/generate';
const CREATE = 'POST /trade-api/v2/api_keys';
const DELETE_NEW = /^DELETE \/trade-api\/v2\/api_keys\/[0-9a-f-]{36}$/;
const onGenerate = (fault: FaultRule['fault'], more: Partial<FaultRule> = {}): FaultRule => ({
  method: 'POST',
  path: /\/generate$/,
  fault,
  ...more,
});
const onCreate = (fault: FaultRule['fault'], more: Partial<FaultRule> = {}): FaultRule => ({
  method: 'POST',
  path: /\/api_keys$/,
  fault,
  ...more,
});
const onList = (fault: FaultRule['fault'], more: Partial<FaultRule> = {}): FaultRule => ({
  method: 'GET',
  path: /\/api_keys$/,
  fault,
  ...more,
});

const keysDir = (run: Run) => join(run.configDir, 'keys');
const namedOnService = (services: Services, name: string) => services.keys.control.listKeys().filter((key) => untagged(key.name) === name);

/** Nothing lost and nothing stray: no file in the keys dir, no key of that name on the service. */
function nothingLeft(name: string) {
  return (run: Run, services: Services) => {
    expect(entries(keysDir(run))).toEqual([]);
    expect(namedOnService(services, name)).toEqual([]);
  };
}

/**
 * A 5xx or a lost answer after which no key is listed yet: the service may still make it, so the pending record
 * stays (and, for a create, the staged private half it names) for the keys commands of the next two minutes.
 */
function recordedForLater(name: string) {
  return (run: Run, services: Services) => {
    expect(namedOnService(services, name)).toEqual([]);
    const [record, ...more] = entries(join(run.configDir, 'pending'));
    expect(more).toEqual([]);
    const { verb, staged_file: staged } = JSON.parse(readFileSync(join(run.configDir, 'pending', record!), 'utf8')) as {
      verb: string;
      staged_file?: string;
    };
    expect(entries(keysDir(run))).toEqual(verb === 'create' ? [basename(staged!)] : []);
  };
}
const CHECKED_LATER =
  /^the request stays recorded: keys commands against this service until \d\d:\d\d:\d\d UTC check again and (delete the key if the service makes it late \(nobody holds its private half\)|keep the key with its private half if the service makes it late, else remove the staged file \S+)$/;

/** The new key exists once on the service, and its private key is the one file in the keys dir. */
function storedOnce(name: string) {
  return (run: Run, services: Services) => {
    const [key, ...more] = namedOnService(services, name);
    expect(more).toEqual([]);
    expect(entries(keysDir(run))).toEqual([`${key!.api_key}.pem`]);
  };
}

/** A key of the sandbox that nobody here holds: something to delete. */
function addKey(services: Services, name: string): string {
  const publicKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return services.keys.control.addKey({ name, publicKeyPem }).api_key;
}

const generate = (name: string, ...flags: string[]) => ['keys', 'generate', '--name', name, ...flags];
const create = (name: string, ...flags: string[]) => ['keys', 'create', '--name', name, ...flags];

const listCases: FaultCase[] = [
  {
    name: 'list: 503 twice, then ok',
    faults: [onList({ kind: 'status', status: 503 }, { times: 2 })],
    args: ['keys', 'list'],
    exit: 0,
    sent: times(3, LIST),
  },
  {
    name: 'list: 429 with Retry-After as an HTTP-date, then ok',
    faults: () => [onList({ kind: 'status', status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } })],
    args: ['keys', 'list', '--retries', '1'],
    exit: 0,
    sent: times(2, LIST),
    minMs: 900,
  },
  {
    name: "list: 429 in the exchange's own shape, --retries 0",
    faults: [onList({ kind: 'status', status: 429, body: { error: 'too many requests' } })],
    args: ['keys', 'list', '--retries', '0'],
    exit: 7,
    message: /^keys service answered 429: too many requests$/,
    sent: [LIST],
  },
  {
    name: 'list: the answer stops halfway, --retries 0',
    faults: [onList({ kind: 'truncate', afterProcessing: true })],
    args: ['keys', 'list', '--retries', '0'],
    exit: 8,
    message: /while reading the answer/,
    sent: [LIST],
  },
  {
    name: 'list: no answer, --timeout 1 --retries 0',
    faults: [onList({ kind: 'hang' })],
    args: ['keys', 'list', '--timeout', '1', '--retries', '0'],
    exit: 8,
    message: /in time/,
    sent: [LIST],
    maxMs: 5000,
  },
  {
    name: 'list: an answer over the size cap',
    faults: [onList({ kind: 'huge', bytes: 17 * 1024 * 1024 })],
    args: ['keys', 'list'],
    exit: 8,
    message: /larger than 16 MiB/,
    sent: [LIST],
  },
  {
    name: 'list: an HTML error page',
    faults: [
      onList({ kind: 'body', status: 500, payload: '<!doctype html><title>Internal Server Error</title>', contentType: 'text/html' }),
    ],
    args: ['keys', 'list', '--retries', '0'],
    exit: 8,
    message: /^keys service answered 500: an answer that is not JSON$/,
    sent: [LIST],
  },
];

const generateCases: FaultCase[] = [
  // A 5xx may come after the service acted: never repeated, settled at once like a lost answer.
  {
    name: 'generate: 503 → exactly one POST, the check finds no key yet, the record kept for later commands',
    faults: [onGenerate({ kind: 'status', status: 503 }, { times: 5 })],
    args: generate('g-503'),
    exit: 8,
    message:
      /^the generate request for key "g-503~[0-9a-f]{8}" failed \(keys service answered 503.*\); a check found no key of that request yet$/,
    sent: [GENERATE, LIST],
    check: recordedForLater('g-503'),
  },
  {
    name: 'generate: 502 after the key was minted → the key nobody holds is deleted',
    faults: [onGenerate({ kind: 'status', status: 502, afterProcessing: true })],
    args: generate('g-502-minted'),
    exit: 8,
    message:
      /^the generate request for key "g-502-minted~[0-9a-f]{8}" failed \(keys service answered 502.*\); a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    check: nothingLeft('g-502-minted'),
  },
  {
    name: 'generate: 500 with an error body → one POST, the service message quoted',
    faults: [
      onGenerate({ kind: 'status', status: 500, body: { error: { code: 'internal', message: 'database unavailable' } } }, { times: 5 }),
    ],
    args: generate('g-500'),
    exit: 8,
    message:
      /^the generate request for key "g-500~[0-9a-f]{8}" failed \(keys service answered 500: database unavailable; the request was sent, so its outcome is unknown\); a check found no key of that request yet$/,
    sent: [GENERATE, LIST],
    check: recordedForLater('g-500'),
  },
  {
    name: 'generate: an HTML 502 page → one POST',
    faults: [onGenerate({ kind: 'body', status: 502, payload: '<html>Bad Gateway</html>', contentType: 'text/html' }, { times: 5 })],
    args: generate('g-502'),
    exit: 8,
    message:
      /^the generate request for key "g-502~[0-9a-f]{8}" failed \(keys service answered 502: an answer that is not JSON; .*\); a check found no key of that request yet$/,
    sent: [GENERATE, LIST],
    check: recordedForLater('g-502'),
  },
  {
    name: 'generate: 429 with Retry-After: 1 → waited, repeated once (a 429 was not processed), stored once',
    faults: [onGenerate({ kind: 'status', status: 429, headers: { 'retry-after': '1' } })],
    args: generate('g-429', '--retries', '1'),
    exit: 0,
    sent: [GENERATE, GENERATE],
    minMs: 1000,
    check: storedOnce('g-429'),
  },
  {
    name: 'generate: 429 with --retries 0 → exit 7, one POST',
    faults: [onGenerate({ kind: 'status', status: 429 }, { times: 5 })],
    args: generate('g-429-0', '--retries', '0'),
    exit: 7,
    sent: [GENERATE],
    check: nothingLeft('g-429-0'),
  },
  {
    name: 'generate: connection reset before the service acted → not repeated; the check finds no key',
    faults: [onGenerate({ kind: 'reset' })],
    args: generate('g-reset'),
    exit: 8,
    message:
      /^the generate request for key "g-reset~[0-9a-f]{8}" failed \(.*other side closed.*\); a check found no key of that request yet$/,
    hint: CHECKED_LATER,
    sent: [GENERATE, LIST],
    check: recordedForLater('g-reset'),
  },
  {
    name: 'generate: the answer stops halfway after the key was minted → the key nobody holds is deleted',
    faults: [onGenerate({ kind: 'truncate', afterProcessing: true })],
    args: generate('g-truncated'),
    exit: 8,
    message: /a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    check: nothingLeft('g-truncated'),
  },
  {
    name: 'generate: no answer after the key was minted, --timeout 1 → the key is deleted',
    faults: [onGenerate({ kind: 'hang', afterProcessing: true })],
    // --timeout 4, not 1: the deadline is exact now, and the check after it must find the key the sandbox
    // mints before it stops answering (an RSA key pair: seconds on a loaded machine).
    args: generate('g-hang', '--timeout', '4'),
    exit: 8,
    message: /no answer from .* in time.*; a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    maxMs: 12000,
    check: nothingLeft('g-hang'),
  },
  {
    name: 'generate: a 201 whose JSON is cut short, after minting → the key is deleted',
    faults: [onGenerate({ kind: 'body', status: 201, payload: '{"api_key":{"api_key":"', afterProcessing: true })],
    args: generate('g-badjson'),
    exit: 8,
    message:
      /keys service answered 201 with a body that is not valid JSON.*; a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    check: nothingLeft('g-badjson'),
  },
  {
    name: 'generate: a 201 over the size cap, after minting → the key is deleted',
    faults: [onGenerate({ kind: 'huge', bytes: 17 * 1024 * 1024, afterProcessing: true })],
    args: generate('g-huge'),
    exit: 8,
    message: /larger than 16 MiB.*; a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    check: nothingLeft('g-huge'),
  },
  {
    name: 'generate: a 201 without the private key → the key is deleted',
    faults: [onGenerate({ kind: 'body', status: 201, payload: '{"api_key_id":"ignored-by-the-check"}', afterProcessing: true })],
    args: generate('g-nokey'),
    exit: 8,
    message:
      /minted key ignored-by-the-check but sent no private key.*; a check found: deleted key [0-9a-f-]{36}, whose private key never arrived$/,
    sent: [GENERATE, LIST, DELETE_NEW],
    check: nothingLeft('g-nokey'),
  },
];

const createCases: FaultCase[] = [
  {
    name: 'create: 503 → one POST, a check finds no key yet, the staged private key and its record kept for later commands',
    faults: [onCreate({ kind: 'status', status: 503 }, { times: 5 })],
    args: create('c-503'),
    exit: 8,
    message:
      /^the create request for key "c-503~[0-9a-f]{8}" failed \(keys service answered 503.*\); a check found no key of that request yet$/,
    sent: [CREATE, LIST],
    check: recordedForLater('c-503'),
  },
  {
    name: 'create: 429 with Retry-After: 1 → repeated once, stored once',
    faults: [onCreate({ kind: 'status', status: 429, headers: { 'retry-after': '1' } })],
    args: create('c-429', '--retries', '1'),
    exit: 0,
    sent: [CREATE, CREATE],
    minMs: 1000,
    check: storedOnce('c-429'),
  },
];

const DELETE = /^DELETE \/trade-api\/v2\/api_keys\/[\w-]+$/;
const onDelete = (fault: FaultRule['fault']): FaultRule => ({ method: 'DELETE', path: /\/api_keys\//, fault });
const del = ['keys', 'delete', '--yes', '-o', 'json'];
const deleted = (result: string) => (run: Run) =>
  expect(JSON.parse(run.stdout)).toEqual([{ api_key: expect.any(String), deleted: true, result }]);

const deleteCases: FaultCase[] = [
  {
    name: 'delete: 503 before the service acted → repeated, deleted',
    faults: [onDelete({ kind: 'status', status: 503 })],
    args: del,
    prepare: (s) => [addKey(s, 'd-503')],
    exit: 0,
    sent: [DELETE, DELETE],
    check: (run, s) => {
      deleted('deleted')(run);
      expect(namedOnService(s, 'd-503')).toEqual([]);
    },
  },
  {
    name: 'delete: the answer lost after the service deleted → the retry finds it gone: "already deleted", exit 0',
    faults: [onDelete({ kind: 'reset', afterProcessing: true })],
    args: del,
    prepare: (s) => [addKey(s, 'd-lost')],
    exit: 0,
    notes: /^key \S+: a retried delete found it gone; the first attempt deleted it\n$/,
    sent: [DELETE, DELETE],
    check: deleted('already deleted'),
  },
  {
    name: 'delete: a 429 deleted nothing, so a key that never existed is still "not found" (exit 5) after the retry',
    faults: [onDelete({ kind: 'status', status: 429 })],
    args: [...del, 'never-existed'],
    exit: 5,
    partialStdout: true,
    message: /^key never-existed not found$/,
    sent: times(2, 'DELETE /trade-api/v2/api_keys/never-existed'),
    check: (run) => expect(JSON.parse(run.stdout)).toEqual([{ api_key: 'never-existed', deleted: false, result: 'not found' }]),
  },
  {
    name: 'delete: --retries 0 and the answer lost → exit 8 (the key is in fact gone)',
    faults: [onDelete({ kind: 'reset', afterProcessing: true })],
    args: [...del, '--retries', '0'],
    prepare: (s) => [addKey(s, 'd-lost-0')],
    exit: 8,
    partialStdout: true,
    message: /^connection to 127\.0\.0\.1:\d+ failed: other side closed$/,
    sent: [DELETE],
    check: (_run, s) => expect(namedOnService(s, 'd-lost-0')).toEqual([]),
  },
];

describe.concurrent('keys under faults', () => {
  it.each([...listCases, ...generateCases, ...createCases, ...deleteCases])('$name', async (c) => {
    await runFaultCase('keys', c);
  });

  it('create: the answer is lost after the key was made → not repeated; the key that accepts the new private key is kept', async () => {
    await runFaultCase('keys', {
      name: 'create lost',
      faults: [onCreate({ kind: 'reset', afterProcessing: true })],
      args: create('c-lost'),
      exit: 0,
      notes:
        /^warning: the answer to the create request was lost, but key [\w-]+ named "c-lost~[0-9a-f]{8}" accepts the new private key: it is this one\n/,
      sent: [CREATE, LIST, LIST],
      async check(run, s) {
        storedOnce('c-lost')(run, s);
        const [key] = namedOnService(s, 'c-lost');
        expect(run.stderr).toContain(`key ${key!.api_key} named "${key!.name}" accepts the new private key`);
        const kept = join(keysDir(run), `${key!.api_key}.pem`);
        const signed = await trident(['keys', 'list', '--key-id', key!.api_key, '--private-key', kept], { env: envFor.keys(s) });
        expect(signed.exitCode, signed.stderr).toBe(0);
      },
    });
  });

  it('create: the answer is lost before the service acted → not repeated; a check finds no key yet, the staged key kept for later commands', async () => {
    await runFaultCase('keys', {
      name: 'create lost before',
      faults: [onCreate({ kind: 'reset' })],
      args: create('c-lost-before'),
      exit: 8,
      message: /^the create request for key "c-lost-before~[0-9a-f]{8}" failed \(.*\); a check found no key of that request yet$/,
      hint: CHECKED_LATER,
      sent: [CREATE, LIST],
      check: recordedForLater('c-lost-before'),
    });
  });

  it('a keys service that is down: generate fails on its first request, nothing is stored', async () => {
    await withServices(['keys'], async (s) => {
      const run = await trident(generate('down'), {
        env: { ...envFor.keys(s), TRIDENT_KEYS_URL: `http://127.0.0.1:${await closedPort()}/trade-api/v2` },
      });
      expect(run.exitCode).toBe(8);
      expect(errorOf(run).message).toMatch(/^cannot connect to 127\.0\.0\.1:\d+: connection refused$/);
      nothingLeft('down')(run, s);
    });
  });
});
