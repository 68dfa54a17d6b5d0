// Getting a rotation going: whose key it is (a profile's, or one from flags or environment variables), the
// checks made before anything is sent, the preflight request and the journal's first version; and finding
// the journal of a rotation in progress for --resume and --abort.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import { preflightSecretDir } from '../../core/files/secret-file.js';
import { PRIVATE_KEY_ENV, keysBaseUrl, resolveConnection, type ConnectionOptions, type KeysConnection } from '../connection.js';
import { settleEarlierRequests } from '../settled-client.js';
import { STDOUT, isTridentsOwnPlace, outPath, preflightKeyTarget, stagingDir } from '../mint/key-files.js';
import { Rotation } from './machine.js';
import type { RotationDeps } from './deps.js';
import { logStep } from './steps.js';
import {
  createJournal,
  describeOwner,
  inProgressError,
  journalPath,
  assertRotationsDir,
  journalsOfKey,
  readJournal,
  rotationsDir,
  type Journal,
  type KeyOwner,
} from './journal.js';
import { requireName } from '../rules.js';
import { preflightPending } from '../mint/pending.js';
import { untagged } from '../mint/tag.js';
import { parseAge } from '../key-ages.js';
import { preflightOverlap } from '../overlap/records.js';
import { profilesUsing } from '../ledger/claims.js';

export interface RotateOptions extends ConnectionOptions {
  name?: string;
  local?: boolean;
  out?: string;
  keepOld?: boolean;
  keepOldFor?: string;
  dryRun?: boolean;
  resume?: boolean;
  abort?: boolean;
}

/** What a new rotation will do, worked out without sending anything. */
export interface RotationPlan {
  owner: KeyOwner;
  journalPath: string;
  connection: KeysConnection;
  oldKeyFile: string | null;
  oldFileCreatedByTrident: boolean;
  profileBefore?: Journal['profile_before'];
  method: Journal['method'];
  /** --name; undefined: derived from the old key's name once it is known. */
  name?: string;
  targetFile: string | null;
  stagingDir: string;
  keepOld: boolean;
  /** --keep-old-for in seconds: the old key is recorded for keys prune instead of deleted. */
  keepOldForS?: number;
  hooks?: Journal['hooks'];
}

const ROTATED_SUFFIX = /-rotated-\d{8}T\d{6}Z(?:-\d+)?$/;

/**
 * `<old name>-rotated-20260301T101500Z`; an earlier rotation's suffix and the old key's tag are replaced, not
 * stacked. The mint adds the new key's own tag, which keeps names apart.
 */
export function rotatedName(oldName: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${untagged(oldName).replace(ROTATED_SUFFIX, '') || 'key'}-rotated-${stamp}`;
}

/** A profile's key is rotated when the key id comes from the profile; then its private key must come from there too. */
function keyOwner(ctx: Context, opts: RotateOptions, keyId: string): KeyOwner {
  if (ctx.settings.resolve('keys.keyId', opts.keyId).source !== 'profile') return { mode: 'env', keyId };
  const fileSource = ctx.settings.resolve('keys.privateKeyFile', opts.privateKey).source;
  const elsewhere =
    fileSource === 'flag'
      ? '--private-key'
      : fileSource === 'env'
        ? 'TRIDENT_PRIVATE_KEY_FILE'
        : ctx.env[PRIVATE_KEY_ENV]
          ? PRIVATE_KEY_ENV
          : undefined;
  if (elsewhere !== undefined) {
    throw usageError(
      `the key id comes from profile "${ctx.profile}" but its private key from ${elsewhere}: rotate switches the profile, so both must come from it`,
      `drop ${elsewhere} to rotate the profile's key, or give the key id with --key-id or TRIDENT_KEY_ID to rotate that key without touching the profile`,
    );
  }
  return { mode: 'profile', profile: ctx.profile };
}

/**
 * One journal name per key id, whoever owns the key (a profile or the environment): two rotations of one key
 * contend for one file, which only one can create (createJournal is exclusive).
 */
const journalOfKey = (configDir: string, keyId: string): string => journalPath(configDir, { mode: 'env', keyId });

function assertNothingInProgress(ctx: Context, path: string, keyId: string): void {
  const existing = readJournal(ctx.configDir, path);
  if (existing) throw inProgressError(path, existing);
  const other = journalsOfKey(ctx.configDir, keyId)[0];
  if (other) throw inProgressError(other.path, other.journal);
}

/**
 * The old key is deleted at the end: refused (exit 2) when another profile of the config dir uses it too, which
 * would be left with a deleted key. (One that is pointed at it later is seen again before the delete.)
 */
function refuseKeyOfOtherProfiles(ctx: Context, keyId: string, owner: KeyOwner): void {
  const others = profilesUsing(ctx.settings.store.dir, keyId, owner.mode === 'profile' ? owner.profile : undefined);
  if (others.length === 0) return;
  throw usageError(
    `key ${keyId} is also used by ${others.join(' and ')}: a rotation deletes the old key, which would leave ${others.length > 1 ? 'them' : 'it'} with a deleted key`,
    `rotate with --keep-old (or --keep-old-for <age>) and point ${others[0]} at the new key afterwards, or point ${others[0]} at another key first`,
  );
}

/** Everything that can be checked before a request: credentials, a rotation in progress, where files go. */
export async function planRotation(ctx: Context, opts: RotateOptions): Promise<RotationPlan> {
  if (opts.out === STDOUT) throw usageError('rotate stores the new private key in a file: --out - is not available');
  const name = opts.name === undefined ? undefined : requireName(opts.name);
  const keepOldForS = opts.keepOldFor === undefined ? undefined : parseAge(opts.keepOldFor, '--keep-old-for');
  const connection = await resolveConnection(ctx, opts);
  const { keyId } = connection.signer;
  const owner = keyOwner(ctx, opts, keyId);
  const path = journalOfKey(ctx.configDir, keyId);
  assertNothingInProgress(ctx, path, keyId);
  const targetFile = outPath(opts.out) ?? null;
  if (targetFile !== null && existsSync(targetFile))
    throw usageError(`${targetFile} already exists`, 'rotate never replaces a file: choose another --out');
  preflightKeyTarget(ctx, opts.out);
  assertRotationsDir(ctx.configDir);
  preflightSecretDir(rotationsDir(ctx.configDir));
  preflightPending(ctx.configDir);
  if (keepOldForS !== undefined) preflightOverlap(ctx.configDir);
  const keepOld = Boolean(opts.keepOld) || keepOldForS !== undefined;
  if (!keepOld) refuseKeyOfOtherProfiles(ctx, keyId, owner);
  const oldPlace = ctx.settings.get('keys.privateKeyFile', opts.privateKey)!;
  const oldKeyFile = connection.signer.source === PRIVATE_KEY_ENV ? null : isKeyringReference(oldPlace) ? oldPlace : resolve(oldPlace);
  const stored = ctx.settings.store.values(ctx.profile);
  return {
    owner,
    journalPath: path,
    connection,
    oldKeyFile,
    oldFileCreatedByTrident: oldKeyFile !== null && isTridentsOwnPlace(ctx, keyId, oldKeyFile),
    ...(owner.mode === 'profile' ? { profileBefore: { keyId: stored['keys.keyId'], privateKeyFile: stored['keys.privateKeyFile'] } } : {}),
    method: opts.local ? 'local' : 'generate',
    ...(name !== undefined ? { name } : {}),
    targetFile,
    stagingDir: resolve(stagingDir(ctx, opts.out)),
    keepOld,
    ...(keepOldForS !== undefined ? { keepOldForS } : {}),
  };
}

/** The preflight (the current key works and is listed), then the journal: from here on the rotation can be resumed. */
export async function beginRotation(ctx: Context, plan: RotationPlan, deps: RotationDeps): Promise<Rotation> {
  const start = performance.now();
  const { keyId } = plan.connection.signer;
  await settleEarlierRequests(ctx, plan.connection);
  const client = await deps.client(plan.connection.signer);
  const keys = await client.list();
  const old = keys.find((key) => key.api_key === keyId);
  if (!old)
    throw new TridentError(ExitCode.notFound, `key ${keyId} signs requests, but the service does not list it`, {
      hint: 'check --url: keys work only in the environment that issued them',
    });
  const name = plan.name ?? rotatedName(old.name, ctx.now());
  const now = ctx.now().toISOString();
  const id = randomBytes(6).toString('hex');
  const journal: Journal = {
    version: 2,
    id,
    started_at: now,
    updated_at: now,
    phase: 'minting',
    owner: plan.owner,
    ...(plan.profileBefore ? { profile_before: plan.profileBefore } : {}),
    url: plan.connection.baseUrl.href,
    method: plan.method,
    keep_old: plan.keepOld,
    ...(plan.keepOldForS !== undefined ? { keep_old_for_s: plan.keepOldForS } : {}),
    ...(plan.hooks ? { hooks: plan.hooks } : {}),
    old_key: { ...old, private_key_file: plan.oldKeyFile, file_created_by_trident: plan.oldFileCreatedByTrident },
    new_name: name,
    staging_dir: plan.stagingDir,
    target_file: plan.targetFile,
    old_key_deleted: false,
    steps: [{ step: 'preflight', status: 'done', ms: Math.round(performance.now() - start), api_key: keyId, name: old.name }],
    warnings: [],
  };
  logStep(ctx, journal.steps[0]!);
  // Under the settings lock, as every change of a profile's key: the key planned on is still where the plan found
  // it (a move in another shell is refused from here on, since the journal names the place), and still the profile's;
  // and no other profile was pointed at it since the plan looked (`config set` in another shell would otherwise be
  // half done: its key id set before the journal, its file refused after).
  await ctx.settings.store.whileLocked(async () => {
    assertKeyWhereThePlanFoundIt(ctx, plan);
    if (!plan.keepOld) refuseKeyOfOtherProfiles(ctx, keyId, plan.owner);
    await createJournal(ctx.configDir, plan.journalPath, journal);
  });
  await deps.checkpoint('minting');
  return new Rotation(ctx, plan.journalPath, journal, deps, { resumed: false, oldClient: client });
}

function assertKeyWhereThePlanFoundIt(ctx: Context, plan: RotationPlan): void {
  const now = plan.owner.mode === 'profile' ? ctx.settings.store.values(plan.owner.profile) : undefined;
  const moved =
    (now !== undefined &&
      (now['keys.keyId'] !== plan.profileBefore?.keyId || now['keys.privateKeyFile'] !== plan.profileBefore?.privateKeyFile)) ||
    (plan.oldKeyFile !== null && !isKeyringReference(plan.oldKeyFile) && !existsSync(plan.oldKeyFile));
  if (moved)
    throw usageError(
      `the key of ${describeOwner(plan.owner)} changed or moved since the rotation looked at it (by another trident?): nothing was minted`,
      'run the rotation again',
    );
}

/** The profile's rotation: named by its key (old or new), or by the profile (journals of earlier versions). */
function profileRotation(ctx: Context, keyId: string | undefined): { path: string; journal: Journal } | undefined {
  const owner: KeyOwner = { mode: 'profile', profile: ctx.profile };
  const ofProfile = ({ journal }: { journal: Journal }) => journal.owner.mode === 'profile' && journal.owner.profile === ctx.profile;
  const byKey = keyId === undefined ? undefined : journalsOfKey(ctx.configDir, keyId).find(ofProfile);
  if (byKey) return byKey;
  const path = journalPath(ctx.configDir, owner);
  const journal = readJournal(ctx.configDir, path);
  return journal && { path, journal };
}

/** The rotation in progress for the key given by --key-id or TRIDENT_KEY_ID (as its old or new key), otherwise the profile's. */
export function lookUpRotation(
  ctx: Context,
  opts: RotateOptions,
): { owner: KeyOwner; found: { path: string; journal: Journal } | undefined } {
  const keyId = ctx.settings.resolve('keys.keyId', opts.keyId);
  const owner: KeyOwner =
    keyId.source === 'flag' || keyId.source === 'env' ? { mode: 'env', keyId: keyId.value! } : { mode: 'profile', profile: ctx.profile };
  return { owner, found: owner.mode === 'env' ? journalsOfKey(ctx.configDir, owner.keyId)[0] : profileRotation(ctx, keyId.value) };
}

/** The rotation to resume or abort (lookUpRotation); exit 2 when there is none. */
export function findRotation(ctx: Context, opts: RotateOptions, verb: 'resume' | 'abort'): { path: string; journal: Journal } {
  const { owner, found } = lookUpRotation(ctx, opts);
  if (!found) throw usageError(`no rotation of ${describeOwner(owner)} is in progress: nothing to ${verb}`);
  // A rotation is finished where it started: a different URL asked for now would be silently ignored.
  const url = ctx.settings.resolve('keys.url', opts.url);
  if ((url.source === 'flag' || url.source === 'env') && keysBaseUrl(url.value!).href !== keysBaseUrl(found.journal.url).href) {
    throw usageError(
      `the rotation of ${describeOwner(owner)} was started against ${found.journal.url}, not ${url.value}`,
      `run --${verb} without ${url.source === 'flag' ? '--url' : 'TRIDENT_KEYS_URL'}: it always goes to the service the rotation started on`,
    );
  }
  return found;
}
