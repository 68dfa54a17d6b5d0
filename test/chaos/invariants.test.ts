// The invariant checks on made-up observations: each finds what it is for, and no more.
import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../src/sandbox/keys/server.js';
import { checkInvariants } from './invariants.js';
import type { ClientState, Observation, ProcessRecord } from './observation.js';

const PEM = (id: string) => `public half of ${id}`;

function client(index: number, held: string[], extra: Partial<ClientState> = {}): ClientState {
  const initialKeyId = `first-${index}`;
  const profile = extra.profile ?? { keyId: initialKeyId, filePublicKey: PEM(initialKeyId) };
  return {
    index,
    initialKeyId,
    hooks: false,
    held: held.map(PEM),
    profile,
    profiles: { default: profile },
    journalsLeft: [],
    pendingRequests: [],
    ...extra,
  };
}

function observation(events: KeyEvent[], clients: ClientState[], processes: ProcessRecord[] = []): Observation {
  const made = events.filter((event) => event.type !== 'delete').map((event) => event.id);
  const deleted = new Set(events.filter((event) => event.type === 'delete').map((event) => event.id));
  const ids = [...clients.map((c) => c.initialKeyId), ...made];
  return {
    schedule: { seed: 1, clients: clients.map(() => ({ keyName: 'app', hooks: false, settle: 'resume' })), steps: [] },
    workDir: '/nowhere',
    bootstrapKeyId: 'bootstrap',
    processes,
    events,
    alive: ['bootstrap', ...ids.filter((id) => !deleted.has(id))],
    publicKeys: Object.fromEntries(ids.map((id) => [id, PEM(id)])),
    clients,
    harness: [],
  };
}

const event = (type: KeyEvent['type'], id: string, signer: string): KeyEvent => ({ type, id, name: 'alpha', signer, at: 0 });

function ran(client: number, stdout: string, stderr = '', exitCode = 0): ProcessRecord {
  return {
    label: `p${client}`,
    client,
    argv: [],
    startedMs: 0,
    endedMs: 1,
    finished: { exitCode, signal: null, stdout, stderr, signalled: false, timedOut: false },
    eventsAtStart: 0,
    eventsAtExit: 99,
    profileAtExit: {},
    reportedFiles: {},
  };
}

describe('checkInvariants', () => {
  it('passes keys held by their clients, made down the line of each client', () => {
    const events = [event('generate', 'k1', 'first-0'), event('create', 'k2', 'k1'), event('delete', 'k1', 'k2')];
    expect(checkInvariants(observation(events, [client(0, ['first-0', 'k2']), client(1, ['first-1'])]))).toEqual([]);
  });

  it('(a): a key its client does not hold after the settle, even when another client holds it, or its outcome was reported unknown', () => {
    const events = [event('generate', 'k1', 'first-0')];
    const found = checkInvariants(observation(events, [client(0, ['first-0']), client(1, ['first-1', 'k1'])]));
    expect(found).toEqual([{ invariant: 'a', message: expect.stringContaining('only client 1 does'), keys: ['k1'] }]);
    // The settle must have settled it: a word like "unknown" in an earlier report excuses nothing.
    const told = ran(0, '', 'trident: outcome unknown: new keys of that name appeared (k1)\n', 8);
    expect(checkInvariants(observation(events, [client(0, ['first-0']), client(1, ['first-1'])], [told]))).toEqual([
      { invariant: 'a', message: expect.stringContaining('nobody does'), keys: ['k1'] },
    ]);
    // A key made late, for a request the client's ledger still has pending: the next keys command settles it.
    const late = [event('generate', 'k1', 'first-0')];
    const pending = client(0, ['first-0'], { pendingRequests: [late[0]!.name] });
    expect(checkInvariants(observation(late, [pending, client(1, ['first-1'])]))).toEqual([]);
  });

  it("(b): a delete signed by another client's key", () => {
    const events = [event('create', 'k1', 'first-0'), event('delete', 'k1', 'first-1')];
    const found = checkInvariants(observation(events, [client(0, ['first-0']), client(1, ['first-1'])]));
    expect(found.map((violation) => violation.invariant)).toEqual(['b']);
    expect(found[0]!.keys).toEqual(['k1', 'first-1']);
  });

  it('(c): a key reported made that another client deleted; (d): a profile on a key that is gone', () => {
    const events = [event('create', 'k1', 'first-0'), event('delete', 'k1', 'first-1'), event('delete', 'first-0', 'first-1')];
    const made = ran(0, JSON.stringify({ api_key: 'k1', name: 'alpha' }));
    const found = checkInvariants(observation(events, [client(0, []), client(1, ['first-1'])], [made]));
    expect(found.map((violation) => violation.invariant).sort()).toEqual(['b', 'b', 'c', 'd']);
  });

  it('settle and harness: a journal left, a process past its bound', () => {
    const stuck = observation([], [client(0, ['first-0'], { journalsLeft: ['key-first-0.json'] }), client(1, ['first-1'])]);
    stuck.harness.push('step1.run1 ran past its bound');
    expect(checkInvariants(stuck).map((violation) => violation.invariant)).toEqual(['harness', 'settle']);
  });
});
