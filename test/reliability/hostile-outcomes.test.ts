// A gateway that answers 500/502/504 after the service acted on a POST (the key minted, the project saved):
// the outcome is unknown, the POST is sent exactly once, never "try again later". For keys only the
// invariants are held here (the settlement itself is the key-lifecycle work): no key of that name is left
// on the service without its private half.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untagged } from '../../src/keys/mint/tag.js';
import type { Fault } from '../../src/sandbox/http/faults.js';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { runFaultCase, type FaultCase } from './fault-case.js';
import { entries, envFor, requestsFrom, trident, withServices, type Run, type Services } from './harness.js';

const gatewayError = (status: number, afterProcessing = true): Fault => ({
  kind: 'status',
  status,
  body: { message: `gateway ${status}` },
  afterProcessing,
});
const UNKNOWN = /the request was sent, so its outcome is unknown/;
const NEVER_LATER = /try again later/;

const keysDir = (run: Run) => join(run.configDir, 'keys');
const keysNamed = (s: Services, name: string) => s.keys.control.listKeys().filter((key) => untagged(key.name) === name);
const posts = (s: Services) => s.keys.server.requests.filter((request) => request.method === 'POST').length;

/**
 * Every key of that name has its private half in the keys dir, named on stderr; no stray file otherwise but a
 * staged private half that a pending record names (a create whose key may still be made).
 */
function nobodyLosesAKey(run: Run, s: Services, name: string): void {
  const keys = keysNamed(s, name);
  const pending = entries(join(run.configDir, 'pending')).map(
    (file) => JSON.parse(readFileSync(join(run.configDir, 'pending', file), 'utf8')) as { staged_file?: string },
  );
  const staged = pending.flatMap((record) => (record.staged_file ? [basename(record.staged_file)] : []));
  expect(entries(keysDir(run)).sort()).toEqual([...keys.map((key) => `${key.api_key}.pem`), ...staged].sort());
  for (const key of keys) expect(run.stderr).toContain(key.api_key);
}

describe.concurrent('5xx after the service acted on a POST', () => {
  it.each([
    ['generate answered 502 after minting', 'o-gen-502', ['keys', 'generate'], 502, true],
    ['generate answered 504 before minting', 'o-gen-504', ['keys', 'generate'], 504, false],
    ['create answered 500 after the key was made', 'o-create-500', ['keys', 'create'], 500, true],
    ['create answered 503 before the key was made', 'o-create-503', ['keys', 'create'], 503, false],
  ] as const)('keys %s: one POST, never "try again later", no key without its private half', async (_name, name, verb, status, after) => {
    await withServices(['keys'], async (s) => {
      s.keys.server.faults.add({
        method: 'POST',
        path: verb[1] === 'generate' ? /\/generate$/ : /\/api_keys$/,
        fault: gatewayError(status, after),
        times: 5,
      });
      const run = await trident([...verb, '--name', name], { env: envFor.keys(s) });
      // generate: the private half never arrived, so the settlement deletes a key it made (exit 8). create
      // keeps a key that accepts the private half made here, today finishing with a warning (exit 0).
      expect(verb[1] === 'generate' ? [8] : [0, 8], run.stderr).toContain(run.exitCode);
      expect(run.stderr).not.toMatch(NEVER_LATER);
      expect(posts(s)).toBe(1);
      if (verb[1] === 'generate') expect(keysNamed(s, name)).toEqual([]);
      nobodyLosesAKey(run, s, name);
    });
  });

  const timeCases: FaultCase[] = [
    {
      name: 'time projects create answered 504 after saving: outcome unknown, how to check, one project',
      faults: [{ method: 'POST', path: '/api/v1/projects', fault: gatewayError(504), times: 5 }],
      args: ['time', 'projects', 'create', '--name', 'o-project'],
      exit: 8,
      message:
        /^outcome unknown for the new project "o-project": time service answered 504: gateway 504; the request was sent, so its outcome is unknown$/,
      hint: /^check with: trident time projects --status all \(look for "o-project"\) before creating it again$/,
      sent: ['POST /api/v1/projects'],
      check: (_run, s) => expect(s.time.control.projects().filter((p) => (p as { name: string }).name === 'o-project')).toHaveLength(1),
    },
    {
      name: 'time projects update answered 500 after saving: outcome unknown, one POST',
      faults: [{ method: 'POST', path: '/api/v1/projects/61', fault: gatewayError(500), times: 5 }],
      args: ['time', 'projects', 'update', '61', '--name', 'o-renamed'],
      exit: 8,
      message: /^time service answered 500: gateway 500; the request was sent, so its outcome is unknown$/,
      hint: /^check whether it took effect before running the command again$/,
      sent: ['POST /api/v1/projects/61'],
    },
    {
      name: 'time customer-update answered 502 after renaming: outcome unknown, one POST (the rename happened)',
      faults: [{ method: 'POST', path: '/api/v1/customers/4', fault: gatewayError(502), times: 5 }],
      args: ['time', 'customer-update', '4', '--name', 'o-customer'],
      exit: 8,
      message: UNKNOWN,
      hint: /^check whether it took effect/,
      sent: ['POST /api/v1/customers/4'],
      check: (_run, s) => expect(s.time.control.customers().find((c) => c.id === 4)!.name).toBe('o-customer'),
    },
  ];

  it.each(timeCases)('$name', async (c) => {
    const run = await runFaultCase('time', c);
    expect(run.stderr).not.toMatch(NEVER_LATER);
  });

  it('time login answered 500 after the token was made: exit 8, one POST, no token stored', async () => {
    await withServices(['time'], async (s) => {
      s.time.server.faults.add({ method: 'POST', path: '/api/v1/auth', fault: gatewayError(500), times: 5 });
      const sent = requestsFrom(s.time.server);
      const run = await trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
        env: envFor.timeServer(s),
        input: `${SANDBOX_TIME_USER.password}\n`,
      });
      expect(run.exitCode, run.stderr).toBe(8);
      expect(run.stderr).toMatch(UNKNOWN);
      expect(run.stderr).not.toMatch(NEVER_LATER);
      expect(sent()).toEqual(['POST /api/v1/auth']);
      expect(entries(join(run.configDir, 'tokens'))).toEqual([]);
    });
  });
});
