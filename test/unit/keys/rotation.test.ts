// The rotation state machine against an in-memory key service: the journal's transitions, resume and abort, and
// the failure paths. A crash at every checkpoint, then another inside the resume or abort that follows, is a matrix
// of its own in the reliability suite (test/reliability/keys-rotation-crashes.test.ts).
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode, TridentError } from '../../../src/core/errors.js';
import * as rotate from '../../../src/keys/commands/rotate.js';
import { journalPath, type Journal } from '../../../src/keys/rotation/journal.js';
import { beginRotation, planRotation, rotatedName } from '../../../src/keys/rotation/start.js';
import { signerFromFile } from '../../../src/keys/connection.js';
import { mintTools } from '../../../src/keys/mint/live-tools.js';
import type { PendingRecord } from '../../../src/keys/mint/pending.js';
import { settleRecord } from '../../../src/keys/mint/settle.js';
import { rejectionOf } from './fixtures.js';
import {
  contextFor,
  continueRotation as go,
  ed25519Pair,
  fakeDeps,
  newWorld,
  removeWorlds,
  startRotation as start,
  statusError,
  unknownOutcome,
  type World,
} from '../../helpers/rotation-fake.js';
import { JOURNAL, crashes, expectOneWorkingKey, profileKey } from '../../helpers/rotation-checks.js';

afterAll(removeWorlds);
const journalOf = (world: World): Journal => JSON.parse(readFileSync(JOURNAL(world), 'utf8'));

/** Points `profile` at `keyId` (undefined: at no key) in the world's settings file, as another shell would. */
function setProfile(world: World, profile: string, keyId: string | undefined): void {
  const path = join(world.configDir, 'settings.json');
  const settings = JSON.parse(readFileSync(path, 'utf8'));
  settings.profiles[profile] = { ...settings.profiles.ci, 'keys.keyId': keyId };
  writeFileSync(path, JSON.stringify(settings), { mode: 0o600 });
}

describe('another profile using the key being rotated', () => {
  it('is refused before anything is sent (exit 2), unless the old key is kept', async () => {
    const world = newWorld();
    setProfile(world, 'ops', world.oldId);
    const refused = await rejectionOf(Promise.resolve().then(() => planRotation(contextFor(world), {})));
    expect(refused.exitCode).toBe(ExitCode.usage);
    expect(refused.message).toBe(
      `key ${world.oldId} is also used by profile "ops": a rotation deletes the old key, which would leave it with a deleted key`,
    );
    expect((refused as TridentError).hint).toContain(
      'rotate with --keep-old (or --keep-old-for <age>) and point profile "ops" at the new key',
    );
    expect([...world.service.keys.keys()]).toEqual([world.oldId]);
    const kept = await start(world, { keepOld: true });
    expect(kept.outcome).toBe('rotated');
    expect(world.service.keys.has(world.oldId)).toBe(true);
  });

  it('pointed at the old key between the plan and the journal: refused under the lock, nothing minted, no journal', async () => {
    const world = newWorld();
    const ctx = contextFor(world);
    const plan = await planRotation(ctx, {});
    // `config set` in another shell, landing after the plan looked and before the journal is written.
    setProfile(world, 'ops', world.oldId);
    const refused = await rejectionOf(beginRotation(ctx, plan, fakeDeps(world)));
    expect(refused.exitCode).toBe(ExitCode.usage);
    expect(refused.message).toContain(`key ${world.oldId} is also used by profile "ops"`);
    expect(existsSync(JOURNAL(world))).toBe(false);
    expect([...world.service.keys.keys()]).toEqual([world.oldId]);
  });

  it('pointed at the old key while the rotation runs: the old key is not deleted, said so, and both keys stay valid', async () => {
    const world = newWorld();
    const checkpoints: string[] = [];
    const deps = fakeDeps(world, undefined, checkpoints);
    const checkpoint = deps.checkpoint;
    deps.checkpoint = async (point) => {
      if (point === 'verified') setProfile(world, 'ops', world.oldId);
      await checkpoint(point);
    };
    const ctx = contextFor(world);
    const result = await (await beginRotation(ctx, await planRotation(ctx, {}), deps)).run();
    expect([result.outcome, result.exitCode]).toEqual(['rotated', ExitCode.ok]);
    const newId = profileKey(world)['keys.keyId']!;
    expect(newId).not.toBe(world.oldId);
    expect([world.service.keys.has(world.oldId), world.service.keys.has(newId)]).toEqual([true, true]);
    expect(world.stderr.join('')).toContain(`the old key ${world.oldId} was not deleted: profile "ops" uses it now; both keys are valid`);
    expect(existsSync(world.oldFile)).toBe(true);
    expect(existsSync(JOURNAL(world))).toBe(false);
  });
});
describe('the rotation journal', () => {
  it('is written before and after every step, 0600, and gone at the end', async () => {
    const world = newWorld();
    const seen: Array<[string, string | undefined, number]> = [];
    const checkpoints: string[] = [];
    const ctx = contextFor(world);
    const deps = fakeDeps(world, undefined, checkpoints);
    const checkpoint = deps.checkpoint;
    deps.checkpoint = async (point) => {
      seen.push([point, journalOf(world).phase, statSync(JOURNAL(world)).mode & 0o777]);
      await checkpoint(point);
    };
    const result = await (await beginRotation(ctx, await planRotation(ctx, {}), deps)).run();
    expect(result.outcome).toBe('rotated');
    expect(seen).toEqual([
      ['minting', 'minting', 0o600],
      ['pending', 'minting', 0o600],
      ['answered', 'minting', 0o600],
      ['stored', 'stored', 0o600],
      ['switching', 'switching', 0o600],
      ['switched', 'switched', 0o600],
      ['verified', 'verified', 0o600],
      ['deleting-old', 'deleting-old', 0o600],
      ['old-deleted', 'old-deleted', 0o600],
    ]);
    expect(expectOneWorkingKey(world)).toBe(result.journal.new_key!.api_key);
    expect(JSON.stringify(result.journal)).not.toMatch(/PRIVATE KEY/);
  });

  it('names the new key after the old one, replacing an earlier rotation suffix', () => {
    const now = new Date('2026-03-01T10:15:00.123Z');
    expect(rotatedName('deploy', now)).toBe('deploy-rotated-20260301T101500Z');
    expect(rotatedName('deploy-rotated-20250101T000000Z', now)).toBe('deploy-rotated-20260301T101500Z');
    expect(rotatedName('', now)).toBe('key-rotated-20260301T101500Z');
  });

  it("drops the old key's tag and an earlier counter: the mint adds a tag of its own", () => {
    const now = new Date('2026-03-02T00:00:00Z');
    expect(rotatedName('deploy-rotated-20260301T101500Z~0a1b2c3d', now)).toBe('deploy-rotated-20260302T000000Z');
    expect(rotatedName('deploy-rotated-20260301T101500Z-2', now)).toBe('deploy-rotated-20260302T000000Z');
    expect(rotatedName('deploy~0a1b2c3d', now)).toBe('deploy-rotated-20260302T000000Z');
  });

  it('a second rotation in the same second rotates the new key under a name of its own (a tag of its own)', async () => {
    const world = newWorld();
    const now = () => new Date('2026-03-01T10:15:00.500Z');
    const first = await (
      await beginRotation(
        contextFor(world, {}, undefined, now),
        await planRotation(contextFor(world, {}, undefined, now), {}),
        fakeDeps(world),
      )
    ).run();
    expect(first.outcome).toBe('rotated');
    const ctx = contextFor(world, {}, undefined, now);
    const second = await (await beginRotation(ctx, await planRotation(ctx, {}), fakeDeps(world))).run();
    expect(second.outcome).toBe('rotated');
    expect(first.journal.new_key!.name).toMatch(/^ci-key-rotated-20260301T101500Z~[0-9a-f]{8}$/);
    expect(second.journal.new_key!.name).toMatch(/^ci-key-rotated-20260301T101500Z~[0-9a-f]{8}$/);
    expect(second.journal.new_key!.name).not.toBe(first.journal.new_key!.name);
    expect(world.service.names()).toEqual([second.journal.new_key!.name]);
    expect(expectOneWorkingKey(world)).toBe(second.journal.new_key!.api_key);
  });

  it('blocks another rotation of the same key, from the profile or from the environment (exit 2)', async () => {
    const world = newWorld();
    await crashes(start(world, {}, 'stored'));
    const again = await rejectionOf(Promise.resolve().then(() => planRotation(contextFor(world), {})));
    expect(again.exitCode).toBe(ExitCode.usage);
    expect(again.message).toContain('a rotation of profile "ci" is in progress');
    const env = { TRIDENT_KEY_ID: world.oldId, TRIDENT_PRIVATE_KEY_FILE: world.oldFile, TRIDENT_KEYS_URL: 'https://keys.test' };
    const fromEnv = await rejectionOf(Promise.resolve().then(() => planRotation(contextFor(world, env), {})));
    expect(fromEnv.message).toContain('a rotation of profile "ci" is in progress');
  });
});

describe('resume and abort at the edges', () => {
  it('--abort after the delete of the old key may have been sent finishes the rotation instead', async () => {
    for (const point of ['deleting-old', 'old-deleted']) {
      const world = newWorld();
      await crashes(start(world, {}, point));
      const result = await go(world, 'abort');
      expect(result.outcome).toBe('rotated');
      expect(result.journal.warnings).toEqual([
        'the delete of the old key had been sent already, so the rotation cannot be undone: finishing it instead',
      ]);
      expect(expectOneWorkingKey(world)).not.toBe(world.oldId);
    }
  });

  it('a key whose private half was stored before the crash is kept; one whose private half never arrived is deleted, and another made', async () => {
    for (const stored of [true, false]) {
      const world = newWorld();
      await crashes(start(world, {}, stored ? 'stored' : 'answered'));
      const journal = journalOf(world);
      const minted = [...world.service.keys.keys()].find((id) => id !== world.oldId)!;
      // As if killed after the private half was stored but before the journal said so.
      if (stored)
        writeFileSync(JOURNAL(world), JSON.stringify({ ...journal, phase: 'minting', new_key: undefined, private_key_file: undefined }));
      expect(existsSync(journalOf(world).pending!)).toBe(true);
      const result = await go(world, 'resume');
      const found = result.journal.steps.find((step) => step.step === 'find-minted');
      expect(found).toMatchObject(stored ? { kept: minted, deleted: [] } : { deleted: [minted] });
      const keyId = expectOneWorkingKey(world);
      expect(keyId === minted).toBe(stored);
      expect(readdirSync(join(world.configDir, 'pending'))).toEqual([]);
    }
  });

  it('a move of a private key made here cut short (in both places) is finished by --resume and cleaned up by --abort', async () => {
    for (const action of ['resume', 'abort'] as const) {
      const world = newWorld();
      await crashes(start(world, { local: true }, 'answered'));
      const record = JSON.parse(readFileSync(journalOf(world).pending!, 'utf8')) as { staged_file: string };
      const minted = [...world.service.keys.keys()].find((id) => id !== world.oldId)!;
      const final = join(world.configDir, 'keys', `${minted}.pem`);
      linkSync(record.staged_file, final);
      const result = await go(world, action);
      expect(result.outcome).toBe(action === 'resume' ? 'rotated' : 'aborted');
      expect(existsSync(final)).toBe(action === 'resume');
      expect(existsSync(record.staged_file)).toBe(false);
      expect(expectOneWorkingKey(world) === minted).toBe(action === 'resume');
    }
  });
});

describe('failures along the way', () => {
  it('a generate whose answer was lost is settled at once: the key nobody holds is deleted and nothing changed', async () => {
    const world = newWorld();
    world.service.fail({ operation: 'generate', error: unknownOutcome(), after: true });
    const error = await rejectionOf(start(world));
    expect(error.exitCode).toBe(ExitCode.unavailable);
    expect(error.message).toMatch(
      /^the generate request for key "ci-key-rotated-\d{8}T\d{6}Z~[0-9a-f]{8}" failed \(connection to keys\.test failed: other side closed\); a check found: deleted key \S+, whose private key never arrived$/,
    );
    expect(error.hint).toBe('nothing is left behind: run the command again');
    expect(existsSync(JOURNAL(world))).toBe(false);
    expect([...world.service.keys.keys()]).toEqual([world.oldId]);
    expect(readdirSync(join(world.configDir, 'pending'))).toEqual([]);
  });

  it('a generate not listed yet after a lost answer pauses the rotation; resume hands its record over and makes another key, which a late key cannot displace', async () => {
    const world = newWorld();
    world.service.fail({ operation: 'generate', error: unknownOutcome() });
    const error = await rejectionOf(start(world));
    expect(error.message).toContain('a check found no key of that request yet');
    expect(error.hint).toContain('the rotation is paused at step "minting"');
    const result = await go(world, 'resume');
    expect(result.outcome).toBe('rotated');
    expect(result.journal.warnings).toEqual([expect.stringContaining('is not listed yet: keys commands against this service until')]);
    // The first request's record now belongs to later keys commands, which delete its key if it appears.
    const [handedOver] = readdirSync(join(world.configDir, 'pending'));
    const record = JSON.parse(readFileSync(join(world.configDir, 'pending', handedOver!), 'utf8')) as PendingRecord;
    expect(record).toMatchObject({ unwanted: true, verb: 'generate' });
    expect(record.rotation).toBeUndefined();
    const late = world.service.add(record.sent_name, ed25519Pair().publicKeyPem).api_key;
    const ctx = contextFor(world);
    const client = world.service.client(
      await signerFromFile(ctx, profileKey(world)['keys.keyId']!, profileKey(world)['keys.privateKeyFile']!),
    );
    const tools = mintTools(ctx, new URL('https://keys.test'), client, async (signer) => world.service.client(signer));
    expect(await settleRecord(record, await client.list(), tools)).toEqual({ kind: 'settled', keys: [{ id: late, outcome: 'deleted' }] });
    expect(expectOneWorkingKey(world)).toBe(result.journal.new_key!.api_key);
  });

  it('an upload whose answer was lost is found by its staged private half and the rotation goes on (--local)', async () => {
    const world = newWorld();
    world.service.fail({ operation: 'create', error: unknownOutcome(), after: true });
    const result = await start(world, { local: true });
    expect(result.outcome).toBe('rotated');
    const uploaded = result.journal.new_key!.api_key;
    expect(expectOneWorkingKey(world)).toBe(uploaded);
    expect(readdirSync(join(world.configDir, 'pending'))).toEqual([]);
  });

  it('a refused mint ends the rotation with nothing to finish or undo', async () => {
    const world = newWorld();
    world.service.fail({ operation: 'generate', error: statusError(403, ExitCode.auth) });
    const error = await rejectionOf(start(world));
    expect(error.exitCode).toBe(ExitCode.auth);
    expect(error.hint ?? '').not.toContain('paused');
    expect(expectOneWorkingKey(world)).toBe(world.oldId);
  });

  it('a generated key whose private half cannot be stored is deleted again; if that fails too, the message says so', async () => {
    for (const deleteFails of [false, true]) {
      const world = newWorld();
      if (deleteFails) world.service.fail({ operation: 'delete', error: statusError(500, ExitCode.unavailable) });
      const ctx = contextFor(world);
      const deps = fakeDeps(world);
      // A directory where the private key goes: storing it fails right after the answer.
      deps.checkpoint = async (point) => {
        const minted = [...world.service.keys.keys()].find((id) => id !== world.oldId);
        if (point === 'answered') mkdirSync(join(world.configDir, 'keys', `${minted}.pem`));
      };
      const error = await rejectionOf((await beginRotation(ctx, await planRotation(ctx, {}), deps)).run());
      expect(error.exitCode).toBe(ExitCode.usage);
      // Nothing to finish once the key is gone; otherwise the journal stays and the rotation says it is paused.
      if (deleteFails)
        expect(error.hint).toMatch(
          /^nobody holds its private key: delete it with trident keys delete \S+; the rotation is paused at step "minting"/,
        );
      else expect(error.hint).toBe('fix the target (--out, --force, free space) and run the command again');
      const newIds = [...world.service.keys.keys()].filter((id) => id !== world.oldId);
      if (deleteFails) {
        expect(error.message).toMatch(
          /^could not store the private key of the new key \S+ at (\S+) \(\1 already exists\), and deleting that key on the service failed too: keys service answered 500: injected$/,
        );
        expect(newIds).toHaveLength(1);
        expect(existsSync(JOURNAL(world))).toBe(true);
      } else {
        expect(error.message).toMatch(
          /^could not store the private key of the new key \S+ at (\S+) \(\1 already exists\); the key was deleted on the service again$/,
        );
        expect(newIds).toEqual([]);
        expect(existsSync(JOURNAL(world))).toBe(false);
      }
      expect(profileKey(world)['keys.keyId']).toBe(world.oldId);
    }
  });

  it('a new key that fails verification is rolled back, with the reason and its exit code', async () => {
    const world = newWorld();
    world.service.rejectNewKeys = true;
    const result = await start(world);
    expect(result).toMatchObject({ outcome: 'rolled back', exitCode: ExitCode.auth });
    expect(result.problem!.message).toContain('failed verification');
    expect(result.problem!.message).toContain('the rotation was rolled back: profile "ci" uses the old key');
    expect(result.journal.steps.map((step) => `${step.step}:${step.status}`).slice(-4)).toEqual([
      'verify:failed',
      'restore-profile:done',
      'delete-new:done',
      'remove-new-files:done',
    ]);
    expect(expectOneWorkingKey(world)).toBe(world.oldId);
  });

  it('a rollback that cannot delete the new key pauses; --abort finishes it (exit 0), --resume too (with the exit code of the failure)', async () => {
    for (const action of ['abort', 'resume'] as const) {
      const world = newWorld();
      world.service.rejectNewKeys = true;
      world.service.fail({ operation: 'delete', error: statusError(503, ExitCode.unavailable), signer: world.oldId });
      const error = await rejectionOf(start(world));
      expect(error.exitCode).toBe(ExitCode.unavailable);
      expect(error.hint).toContain('--abort (or --resume) finishes rolling it back');
      expect(journalOf(world).phase).toBe('rolling-back');
      expect(profileKey(world)['keys.keyId']).toBe(world.oldId);
      const result = await go(world, action);
      expect(result.exitCode).toBe(action === 'abort' ? ExitCode.ok : ExitCode.auth);
      expect(expectOneWorkingKey(world)).toBe(world.oldId);
    }
  });

  it('an old key that cannot be deleted leaves both keys valid, keeps its file, and says so', async () => {
    const world = newWorld();
    world.service.fail({ operation: 'delete', error: statusError(503, ExitCode.unavailable) });
    const result = await start(world);
    expect(result).toMatchObject({ outcome: 'rotated', exitCode: ExitCode.unavailable });
    expect(result.problem!.hint).toBe(`both keys are valid; delete the old one with: trident keys delete ${world.oldId}`);
    expect(result.journal.warnings[0]).toContain('both keys are valid');
    expect([...world.service.keys.keys()]).toEqual([world.oldId, profileKey(world)['keys.keyId']]);
    expect(existsSync(world.oldFile)).toBe(true);
    expect(existsSync(JOURNAL(world))).toBe(false);
  });

  it('a private key that cannot be stored in its place deletes the new key again, and the file in the way is left alone', async () => {
    const world = newWorld();
    const out = join(dirname(world.configDir), 'new.pem');
    const ctx = contextFor(world);
    const deps = fakeDeps(world);
    deps.checkpoint = async (point) => {
      if (point === 'answered') writeFileSync(out, 'somebody else');
    };
    const error = await rejectionOf((await beginRotation(ctx, await planRotation(ctx, { out }), deps)).run());
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toMatch(
      /^could not store the private key of the new key \S+ at (\S+) \(\1 already exists\); the key was deleted on the service again$/,
    );
    expect(error.message).toContain(` at ${out} `);
    expect(readFileSync(out, 'utf8')).toBe('somebody else');
    expect(existsSync(JOURNAL(world))).toBe(false);
    expect(expectOneWorkingKey(world)).toBe(world.oldId);
  });

  it('--keep-old: an abort after verification still deletes the new key; a resume keeps both', async () => {
    for (const action of ['abort', 'resume'] as const) {
      const world = newWorld();
      await crashes(start(world, { keepOld: true }, 'verified'));
      const result = await go(world, action);
      expect(result.exitCode).toBe(0);
      const keys = [...world.service.keys.keys()];
      expect(keys).toEqual(action === 'abort' ? [world.oldId] : [world.oldId, profileKey(world)['keys.keyId']]);
      expect(existsSync(world.oldFile)).toBe(true);
    }
  });

  it('a key whose PEM came from TRIDENT_PRIVATE_KEY needs it again to abort', async () => {
    const world = newWorld();
    setProfile(world, 'ci', undefined); // the environment's key, which no profile uses
    const env = {
      TRIDENT_KEYS_URL: 'https://keys.test',
      TRIDENT_KEY_ID: world.oldId,
      TRIDENT_PRIVATE_KEY: readFileSync(world.oldFile, 'utf8'),
    };
    await crashes(start(world, {}, 'stored', undefined, env));
    const path = journalPath(world.configDir, { mode: 'env', keyId: world.oldId });
    expect(JSON.parse(readFileSync(path, 'utf8')).old_key.private_key_file).toBeNull();
    const missing = await rejectionOf(go(world, 'abort', undefined, { ...env, TRIDENT_PRIVATE_KEY: undefined }));
    expect(missing.exitCode).toBe(ExitCode.auth);
    expect(missing.message).toContain('came from TRIDENT_PRIVATE_KEY, which is not set now');
    const result = await go(world, 'abort', undefined, env);
    expect(result.outcome).toBe('aborted');
    expect([...world.service.keys.keys()]).toEqual([world.oldId]);
    expect(existsSync(path)).toBe(false);
  });

  it('asks on a terminal; "no" sends nothing and exits 3', async () => {
    const world = newWorld();
    const ctx = { ...contextFor(world, {}, 'n\n'), http: () => Promise.reject(new Error('nothing may be sent')) };
    const error = await rejectionOf(rotate.run(ctx, {}));
    expect(error.exitCode).toBe(ExitCode.cancelled);
    expect(world.stderr.join('')).toContain(`Rotate key ${world.oldId} of profile "ci": make a new key, then delete this one? [y/N]`);
    expect(existsSync(JOURNAL(world))).toBe(false);
    expect(expectOneWorkingKey(world)).toBe(world.oldId);
  });

  it('refuses a key id from the profile with a private key from elsewhere', async () => {
    const world = newWorld();
    let caught: unknown;
    try {
      await planRotation(contextFor(world, { TRIDENT_PRIVATE_KEY: readFileSync(world.oldFile, 'utf8') }), {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TridentError);
    expect((caught as TridentError).message).toContain('but its private key from TRIDENT_PRIVATE_KEY');
  });
});
