// Upgrading loses nothing: config dirs that release 1473a55 really wrote (test/fixtures/upgrade-1473a55/, its
// README says how they were made) are taken over by today's binary on first use, against a sandbox that holds the
// keys that release's service held. A paused rotation is resumed or aborted, a create/generate record left by a
// lost answer or a killed process is settled by the next keys list, and old keys kept by rotations are pruned.
import { existsSync, readdirSync } from 'node:fs';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { keyExists, pendingFiles } from '../helpers/keys-sandbox.js';
import { useKeyringSession } from '../helpers/per-suite.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useUpgradeFixtures, type Restored } from '../helpers/upgrade-fixtures.js';

const restore = useUpgradeFixtures();

const trident = (world: Restored, args: string[]): Promise<CliResult> => runCli(args, { configDir: world.configDir, env: world.env });

function profileKey(world: Restored): { keyId: string; file: string } {
  const profile = world.json<{ profiles: { default: Record<string, string> } }>('settings.json').profiles.default;
  return { keyId: profile['keys.keyId']!, file: profile['keys.privateKeyFile']! };
}

/** The profile's key signs: keys list works and names it in use. */
async function expectProfileSigns(world: Restored): Promise<void> {
  const list = await trident(world, ['keys', 'list', '-o', 'json']);
  expect(list.exitCode, list.stderr).toBe(0);
  const inUse = (JSON.parse(list.stdout) as Array<{ api_key: string; in_use: boolean }>).filter((key) => key.in_use);
  expect(inUse.map((key) => key.api_key)).toEqual([profileKey(world).keyId]);
}

/** The private key at `place` (a file or keyring entry) is the one whose public half the sandbox holds for `id`. */
function expectHolds(world: Restored, place: string, id: string): void {
  const privateHalf = world.read(place);
  expect(privateHalf, `nothing at ${place}`).toBeDefined();
  const publicHalf = createPublicKey(createPrivateKey(privateHalf!)).export({ type: 'spki', format: 'pem' });
  expect(publicHalf).toBe(world.sandbox.control.publicKeyPem(id));
}

const rotationsLeft = (world: Restored) =>
  existsSync(join(world.configDir, 'rotations'))
    ? readdirSync(join(world.configDir, 'rotations')).filter((name) => name.endsWith('.json'))
    : [];

interface PausedRotation {
  world: Restored;
  old: string;
  minted: string;
}

async function pausedRotation(name: string, phase: string): Promise<PausedRotation> {
  const world = await restore(name);
  const { old, minted } = world.roles as { old: string; minted: string };
  expect(world.json(`rotations/key-${old}.json`)).toMatchObject({ version: 2, phase });
  return { world, old, minted };
}

/** keys rotate --resume or --abort; its JSON report. */
async function finish({ world }: PausedRotation, action: 'resume' | 'abort'): Promise<Record<string, unknown>> {
  const result = await trident(world, ['keys', 'rotate', `--${action}`, '--yes', '-o', 'json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** The rotation is over: the service holds `live` of the case's keys, the profile signs with `inUse`, held at its file. */
async function expectEnded({ world }: PausedRotation, inUse: string, live: string[]): Promise<void> {
  const { keyId, file } = profileKey(world);
  expect(keyId).toBe(inUse);
  expectHolds(world, file, inUse);
  const caseKeys = world.sandbox.control.listKeys().filter((key) => key.api_key !== world.sandbox.bootstrap.keyId);
  expect(caseKeys.map((key) => key.api_key).sort()).toEqual([...live].sort());
  expect([rotationsLeft(world), pendingFiles(world.configDir)]).toEqual([[], []]);
  await expectProfileSigns(world);
}

/**
 * Rotations that end with one key of the two, in use and alone on the service: the old one (the rotation undone) or
 * the one the release minted (finished).
 */
const ENDINGS: Array<{ title: string; name: string; phase: string; action: 'resume' | 'abort'; outcome: string; kept: 'old' | 'minted' }> =
  [
    {
      title: 'killed while minting: --abort deletes the key it made and keeps the old one in use',
      name: 'rotation-killed-minting',
      phase: 'minting',
      action: 'abort',
      outcome: 'aborted',
      kept: 'old',
    },
    {
      title: '--local, killed while minting (the pair staged, the key made): --resume keeps that key, proven by the staged half',
      name: 'rotation-local-killed-minting',
      phase: 'minting',
      action: 'resume',
      outcome: 'rotated',
      kept: 'minted',
    },
    {
      title: '--local, killed while minting: --abort deletes the key made from the staged pair',
      name: 'rotation-local-killed-minting',
      phase: 'minting',
      action: 'abort',
      outcome: 'aborted',
      kept: 'old',
    },
    {
      title: 'killed as the old key was being deleted: --abort goes forward and finishes the rotation',
      name: 'rotation-killed-deleting-old',
      phase: 'deleting-old',
      action: 'abort',
      outcome: 'rotated',
      kept: 'minted',
    },
  ];

describe.concurrent('a rotation the release left paused', () => {
  it('killed while minting (its record pending, the key made, its private half lost): --resume deletes that key and rotates', async () => {
    const paused = await pausedRotation('rotation-killed-minting', 'minting');
    const report = await finish(paused, 'resume');
    expect(report).toMatchObject({ outcome: 'rotated', old_key: { api_key: paused.old }, old_key_deleted: true });
    expect(report.warnings).toEqual([`the interrupted mint: deleted key ${paused.minted}, whose private key never arrived`]);
    const renewed = (report.new_key as { api_key: string }).api_key;
    expect(profileKey(paused.world).file).toBe(join(paused.world.configDir, 'keys', `${renewed}.pem`));
    await expectEnded(paused, renewed, [renewed]);
  });

  it('killed with the profile switched to the new key: --resume deletes the old key and its file', async () => {
    const paused = await pausedRotation('rotation-killed-switched', 'switched');
    const report = await finish(paused, 'resume');
    expect(report).toMatchObject({ outcome: 'rotated', new_key: { api_key: paused.minted }, old_key_deleted: true });
    expect(existsSync(join(paused.world.configDir, 'keys', `${paused.old}.pem`))).toBe(false);
    await expectEnded(paused, paused.minted, [paused.minted]);
  });

  it('killed with the profile switched: the journal keeps its keys from keys delete; --abort points the profile back at the old key', async () => {
    const paused = await pausedRotation('rotation-killed-switched', 'switched');
    const refused = await trident(paused.world, ['keys', 'delete', paused.old, '--yes']);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(await finish(paused, 'abort')).toMatchObject({ outcome: 'aborted', old_key_deleted: false });
    expect(existsSync(join(paused.world.configDir, 'keys', `${paused.minted}.pem`))).toBe(false);
    await expectEnded(paused, paused.old, [paused.old]);
  });

  for (const ending of ENDINGS)
    it(ending.title, async () => {
      const paused = await pausedRotation(ending.name, ending.phase);
      const report = await finish(paused, ending.action);
      expect(report).toMatchObject({ outcome: ending.outcome, old_key_deleted: ending.kept === 'minted' });
      await expectEnded(paused, paused[ending.kept], [paused[ending.kept]]);
    });

  it('--keep-old-for, killed once the new key was verified: --resume keeps the old key seven days from then, for keys prune', async () => {
    const paused = await pausedRotation('rotation-keep-old-for-killed-verified', 'verified');
    const resumedFrom = Date.now();
    expect(await finish(paused, 'resume')).toMatchObject({ outcome: 'rotated', old_key_deleted: false });
    await expectEnded(paused, paused.minted, [paused.old, paused.minted]);
    const overlap = paused.world.json<{ kept_until: string; rotated_to: string }>(`overlap/${paused.old}.json`);
    expect(overlap.rotated_to).toBe(paused.minted);
    const sevenDays = 7 * 86_400_000;
    expect(Date.parse(overlap.kept_until)).toBeGreaterThanOrEqual(resumedFrom + sevenDays);
    expect(Date.parse(overlap.kept_until)).toBeLessThanOrEqual(Date.now() + sevenDays);
    const prune = await trident(paused.world, ['keys', 'prune', '-o', 'json']);
    expect(prune.exitCode, prune.stderr).toBe(0);
    expect(JSON.parse(prune.stdout)).toMatchObject([{ api_key: paused.old, result: 'not due' }]);
  });
});

// The release named a key's keyring entry trident/keys/<api_key>, the same in every config dir; today's names
// carry the config dir's tag. Its entries are still the config dir's own where its profile or journal names them.
describeWithTools(KEYRING_TOOLS, 'a rotation the release left paused, its keys in the keyring', () => {
  const keyring = useKeyringSession();

  it('killed with the profile switched: --resume deletes the old key and its entry, the profile signs with the new one', async () => {
    const world = await restore('keyring-rotation-killed-switched', { keyring });
    const paused = { world, old: world.roles.old!, minted: world.roles.minted! };
    expect(profileKey(world).file).toBe(`keyring:trident/keys/${paused.minted}`);
    expect(await finish(paused, 'resume')).toMatchObject({
      outcome: 'rotated',
      new_key: { api_key: paused.minted },
      old_key_deleted: true,
    });
    expect(keyring.lookup(`keys/${paused.old}`)).toBeUndefined();
    await expectEnded(paused, paused.minted, [paused.minted]);
  });
});

interface SettledRecord {
  world: Restored;
  /** The key the record's request made (null if none). */
  minted: string;
  /** The record as the release wrote it. */
  record: { sent_name: string; staged_file?: string };
  /** What the keys list said on stderr. */
  said: string;
}

/** The case restored with the one pending record the release left, and today's first keys list, which settles it. */
async function firstList(name: string): Promise<SettledRecord> {
  const world = await restore(name);
  const records = pendingFiles(world.configDir);
  expect(records).toHaveLength(1);
  const record = world.json<SettledRecord['record']>(`pending/${records[0]}`);
  const list = await trident(world, ['keys', 'list', '-o', 'json']);
  expect(list.exitCode, list.stderr).toBe(0);
  expect(pendingFiles(world.configDir)).toEqual([]);
  return { world, minted: world.roles.minted!, record, said: list.stderr };
}

describe.concurrent('a create or generate record the release left pending, settled by the next keys list', () => {
  it('generate whose answer was lost: the key it made, which nobody holds, is deleted', async () => {
    const { world, minted, said } = await firstList('generate-answer-lost');
    expect(said).toContain(`deleted key ${minted}, whose private key never arrived`);
    expect(keyExists(world.sandbox, minted)).toBe(false);
  });

  it('create whose answer was lost: the key is kept, its staged private half moved to keys/<id>.pem', async () => {
    const { world, minted, record, said } = await firstList('create-answer-lost');
    const kept = join(world.configDir, 'keys', `${minted}.pem`);
    expect(said).toContain(`kept key ${minted}, its private key in ${kept}`);
    expect(keyExists(world.sandbox, minted)).toBe(true);
    expectHolds(world, kept, minted);
    expect(existsSync(record.staged_file!)).toBe(false);
  });

  it('generate killed after storing its key at --out: the key is kept, held at that file and a copy in keys/<id>.pem', async () => {
    const { world, minted, said } = await firstList('generate-killed-stored');
    const copy = join(world.configDir, 'keys', `${minted}.pem`);
    expect(said).toContain(`kept key ${minted}, its private key in ${copy}`);
    expect(keyExists(world.sandbox, minted)).toBe(true);
    expectHolds(world, world.roles.out!, minted);
    expectHolds(world, copy, minted);
  });

  it('generate killed before its request was sent: the record is forgotten and nothing deleted', async () => {
    const { world, record, said } = await firstList('generate-killed-before-sending');
    expect(said).toContain(`generate "${record.sent_name}": no key was made`);
    const live = world.sandbox.control.listKeys().map((key) => key.api_key);
    expect(live).toEqual([world.sandbox.bootstrap.keyId, ...world.recreated]);
  });
});

describe('old keys the release kept after rotations (--keep-old-for), its prune notes and key ages', () => {
  it('are read by config set, keys list, keys audit and keys prune: the due keys are deleted, the rest kept', async () => {
    const world = await restore('overlaps', { undated: true });
    const { pruned, deleting, due, not_due: notDue, in_use: inUse } = world.roles as Record<string, string>;
    const ages = world.json<Record<string, { since: string }>>('key-ages.json');
    expect(world.json(`overlap/${deleting}.json`)).toHaveProperty('deleting_since');

    const refused = await trident(world, ['config', 'set', 'keys.keyId', pruned]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`key ${pruned} was deleted by trident keys prune at `);

    const list = await trident(world, ['keys', 'list', '-o', 'json']);
    expect(list.exitCode, list.stderr).toBe(0);
    const listed = new Map(
      (JSON.parse(list.stdout) as Array<{ api_key: string; age_seconds: number | null }>).map((key) => [key.api_key, key]),
    );
    const expectedAge = (Date.now() - Date.parse(ages[inUse]!.since)) / 1000;
    expect(Math.abs(listed.get(inUse)!.age_seconds! - expectedAge)).toBeLessThan(120);

    const audit = await trident(world, ['keys', 'audit', '-o', 'json']);
    expect(audit.exitCode, audit.stderr).toBe(0);
    const rows = new Map((JSON.parse(audit.stdout) as Array<{ api_key: string }>).map((row) => [row.api_key, row]));
    const overlapRecord = (id: string) => world.json<{ kept_until: string }>(`overlap/${id}.json`);
    for (const id of [deleting, due, notDue])
      expect(rows.get(id), id).toMatchObject({
        flags: ['overlap'],
        kept_until: overlapRecord(id).kept_until,
        age_source: 'made by trident',
      });
    expect(rows.get(inUse)).toMatchObject({ in_use: true, flags: [], age_source: 'made by trident' });

    const kept = await trident(world, ['keys', 'delete', notDue, '--yes']);
    expect(kept.exitCode, kept.stderr).toBe(2);
    expect(kept.stderr).toContain(notDue);

    const prune = await trident(world, ['keys', 'prune', '-o', 'json']);
    expect(prune.exitCode, prune.stderr).toBe(0);
    const results = new Map(
      (JSON.parse(prune.stdout) as Array<{ api_key: string; result: string }>).map((row) => [row.api_key, row.result]),
    );
    expect(Object.fromEntries(results)).toEqual({ [deleting]: 'deleted', [due]: 'deleted', [notDue]: 'not due' });
    expect([deleting, due, notDue, inUse].map((id) => keyExists(world.sandbox, id))).toEqual([false, false, true, true]);
    expect([deleting, due, notDue].map((id) => existsSync(join(world.configDir, 'keys', `${id}.pem`)))).toEqual([false, false, true]);
    expect([deleting, due, notDue].map((id) => existsSync(join(world.configDir, 'overlap', `${id}.json`)))).toEqual([false, false, true]);
    expect(profileKey(world).keyId).toBe(inUse);
    await expectProfileSigns(world);
  });
});
