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

  it("(c): a move's report claims the profile's key at its new place, not a key it made", () => {
    const events = [event('create', 'k1', 'first-0'), event('delete', 'first-0', 'k1')];
    const onK1 = { keyId: 'k1', filePublicKey: PEM('k1') };
    const moved = (overlapping: boolean): ProcessRecord[] => {
      const move = ran(0, JSON.stringify({ profile: 'default', api_key: 'first-0', from: 'a.pem', to: 'keyring:x', removed: true }));
      // A rotation of the same client that ran at the same time switched the profile and deleted the moved key.
      const rotation = { ...ran(0, ''), label: 'rotation', startedMs: overlapping ? 0 : 5, endedMs: 6 };
      return [move, rotation];
    };
    const owner = client(0, ['k1'], { profile: onK1, profiles: { default: onK1 } });
    expect(checkInvariants(observation(events, [owner, client(1, ['first-1'])], moved(true)))).toEqual([]);
    expect(checkInvariants(observation(events, [owner, client(1, ['first-1'])], moved(false)))).toEqual([
      { invariant: 'c', message: expect.stringContaining("reported the profile's key at keyring:x to key first-0"), keys: ['first-0'] },
    ]);
  });

  describe('a keys delete --force of a key another profile uses', () => {
    // Client 0's "ci" profile on its second key k1, deleted by a --force whose report names who is left with it.
    const events = [event('create', 'k1', 'first-0'), event('delete', 'k1', 'first-0')];
    const onK1 = { keyId: 'k1', filePublicKey: PEM('k1') };
    const first = { keyId: 'first-0', filePublicKey: PEM('first-0') };
    const left = (profiles: ClientState['profiles']) => client(0, ['first-0'], { profiles });
    const forced = (id: string, said: string, from = 1, to = 2): ProcessRecord => ({
      ...ran(0, JSON.stringify([{ api_key: id, deleted: true, result: 'deleted' }]), said),
      argv: ['--profile', 'default', 'keys', 'delete', id, '--force', '--yes', '-o', 'json'],
      eventsAtStart: from,
      eventsAtExit: to,
    });
    const told = 'trident: warning: deleting key k1 although profile "ci" still names it (--force)\n';
    const check = (profiles: ClientState['profiles'], ...processes: ProcessRecord[]) =>
      checkInvariants(observation(events, [left(profiles), client(1, ['first-1'])], processes));

    it('(d) excuses the profile its report named as left with the key it deleted, and (e) does not count it', () => {
      expect(check({ default: first, ci: onK1 }, forced('k1', told))).toEqual([]);
    });

    it('(d) excuses no profile the report did not name, and no key but the one it deleted', () => {
      expect(check({ default: onK1, ci: onK1 }, forced('k1', told))).toEqual([
        { invariant: 'd', message: expect.stringContaining('profile "default" uses key k1'), keys: ['k1'] },
      ]);
      // Named only as the owner of a rotation: the profile itself was not said to be left with the key.
      const byRotation =
        'warning: deleting key k1 although the rotation of profile "ci" (as its old key; journal j) still names it (--force)\n';
      expect(check({ default: first, ci: onK1 }, forced('k1', byRotation)).map((found) => found.invariant)).toEqual(['d']);
      // The report of another key's delete, or one that said nothing of who is left.
      expect(check({ default: first, ci: onK1 }, forced('k1', told.replaceAll('k1', 'k2'))).map((found) => found.invariant)).toEqual(['d']);
      expect(check({ default: first, ci: onK1 }, forced('k1', '')).map((found) => found.invariant)).toEqual(['d']);
    });

    it('(d) excuses it when the service deleted the key late, after the run was killed', () => {
      const killed = { ...forced('k1', told, 1, 1), finished: { ...forced('k1', told).finished, exitCode: null, signal: 'SIGKILL' } };
      expect(check({ default: first, ci: onK1 }, killed as ProcessRecord)).toEqual([]);
    });

    it('(d) excuses nothing when the delete came before the run, or the run had no --force', () => {
      expect(check({ default: first, ci: onK1 }, forced('k1', told, 2, 2)).map((found) => found.invariant)).toEqual(['d']);
      const plain = { ...forced('k1', told), argv: ['keys', 'delete', 'k1', '--yes', '-o', 'json'] };
      expect(
        check({ default: first, ci: onK1 }, plain)
          .map((found) => found.invariant)
          .sort(),
      ).toEqual(['d', 'e']);
    });

    it('(e) does not count a plain delete while a keys setup of the same client re-bound profile "ci"', () => {
      const plain = { ...forced('k1', ''), argv: ['keys', 'delete', 'k1', '--yes', '-o', 'json'], startedMs: 5, endedMs: 9 };
      const setup = (startedMs: number, exitCode = 0): ProcessRecord => ({
        ...ran(0, '', '', exitCode),
        argv: ['--profile', 'ci', 'keys', 'setup', '--key-id', 'first-0', '--force', '-o', 'json'],
        startedMs,
        endedMs: startedMs + 4,
      });
      const found = (...processes: ProcessRecord[]) =>
        check({ default: first, ci: first }, ...processes)
          .map((violation) => violation.invariant)
          .sort();
      expect(found(plain, setup(3))).toEqual([]);
      // Before the delete started, or refused: the delete was judged on the profile as it stood.
      expect(found(plain, setup(0))).toEqual(['e']);
      expect(found(plain, setup(3, 2))).toEqual(['e']);
    });

    it("(b) still holds: a --force delete of another client's key", () => {
      const foreign = [event('create', 'k1', 'first-1'), event('delete', 'k1', 'first-0')];
      const found = checkInvariants(observation(foreign, [client(0, ['first-0']), client(1, ['first-1'])], [forced('k1', told)]));
      expect(found.map((violation) => violation.invariant)).toEqual(['b']);
    });
  });

  describe("the harness's config unset of a profile's key, then its keys setup", () => {
    const unset: ProcessRecord = { ...ran(0, ''), argv: ['--profile', 'ci', 'config', 'unset', 'keys.privateKeyFile'] };
    const setup = (exitCode: number, stderr: string): ProcessRecord => ({
      ...ran(0, '', stderr, exitCode),
      argv: ['--profile', 'ci', 'keys', 'setup', '--key-id', 'first-0', '--force', '-o', 'json'],
      startedMs: 2,
    });
    const keyless = client(0, ['first-0'], {
      profiles: { default: { keyId: 'first-0', filePublicKey: PEM('first-0') }, ci: { keyId: 'first-0' } },
    });
    const check = (...processes: ProcessRecord[]) => checkInvariants(observation([], [keyless, client(1, ['first-1'])], processes));
    const refused = 'trident: a rotation of profile "default" is in progress (journal j)\n';

    it('(d) excuses the profile whose re-bind was refused with a reason (exit 2)', () => {
      expect(check(unset, setup(2, refused))).toEqual([]);
    });

    it('(d) excuses no keyless profile without that report, nor a setting the harness did not unset', () => {
      const found = [{ invariant: 'd', message: expect.stringContaining('profile "ci"\'s file (none)'), keys: ['first-0'] }];
      expect(check()).toEqual(found);
      expect(check(unset)).toEqual(found);
      expect(check(unset, setup(2, ''))).toEqual(found);
      expect(check(unset, setup(1, refused))).toEqual(found);
      expect(check({ ...unset, argv: ['--profile', 'ci', 'config', 'unset', 'keys.keyId'] }, setup(2, refused))).toEqual(found);
    });
  });

  it('settle and harness: a journal left, a process past its bound', () => {
    const stuck = observation([], [client(0, ['first-0'], { journalsLeft: ['key-first-0.json'] }), client(1, ['first-1'])]);
    stuck.harness.push('step1.run1 ran past its bound');
    expect(checkInvariants(stuck).map((violation) => violation.invariant)).toEqual(['harness', 'settle']);
  });
});
