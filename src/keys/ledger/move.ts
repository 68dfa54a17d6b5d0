// keys move-to-keyring and keys move-to-file through the ledger: the profile's private key from one place to the
// other, with no moment where it is nowhere. The new place is written and read back; then, under the settings
// lock, the profile is pointed at it and the old place removed, unless anything else names it. A move is refused
// while a rotation holds the profile or its key (the journal names the old place, and --abort would point the
// profile back at it), and when the profile's key changed since the move read it (a rotation's switch in another
// shell). A file the user keeps outside the config dir is left where it is, and so is a place another profile, a
// journal or a kept key's record names.
import type { Context } from '../../context.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import { isInConfigDir } from '../../core/files/config-files.js';
import { SettingsStore } from '../../core/files/settings.js';
import { readPrivateKeyPem } from '../connection.js';
import { privateKeyFromPem } from '../mint/keypair.js';
import { inProgressError, journalOfProfile } from '../rotation/journal.js';
import { describeClaims, keyClaims, placeClaims, type Claim } from './claims.js';

export type MovedKey = {
  profile: string;
  api_key: string;
  from: string;
  to: string;
  /** Whether the old place was removed (a file of the user's outside the config dir stays). */
  removed: boolean;
};

/** `sharedWith`: what else names the old place, which is why it stayed. */
export type MoveResult = { moved: MovedKey; sharedWith: Claim[] } | { already: { profile: string; api_key: string; place: string } };

/** The key the profile itself records (not a flag's or the environment's): the one a move changes. */
function profileKey(ctx: Context): { keyId: string; place: string } {
  const stored = ctx.settings.store.values(ctx.profile);
  const keyId = stored['keys.keyId'];
  const place = stored['keys.privateKeyFile'];
  if (keyId === undefined || place === undefined)
    throw new TridentError(ExitCode.auth, `missing credential: profile "${ctx.profile}" records no private key to move`, {
      hint: 'give the profile a key first: trident keys generate --name <name> --use',
    });
  return { keyId, place };
}

/** The error to give when the profile no longer names the key and place the move read; else undefined. */
function profileMovedOn(ctx: Context, keyId: string, from: string): TridentError | undefined {
  const now = new SettingsStore(ctx.configDir).values(ctx.profile);
  if (now['keys.keyId'] === keyId && now['keys.privateKeyFile'] === from) return undefined;
  return usageError(
    `the key of profile "${ctx.profile}" changed while it was being moved (by another trident?): nothing was moved`,
    'look at it with trident config list, then run the move again',
  );
}

/** Refuses (exit 2) while a rotation holds the profile or its key. */
function refuseWhileRotating(ctx: Context, keyId: string): void {
  const rotation =
    journalOfProfile(ctx.configDir, ctx.profile) ?? keyClaims(ctx.configDir, keyId).find((claim) => claim.kind === 'rotation');
  if (rotation) throw inProgressError(rotation.path, rotation.journal);
}

/** Under the settings lock: refuses (exit 2) unless the profile still names the key and place the move read, unrotated. */
function refuseUnlessUnchanged(ctx: Context, keyId: string, from: string): void {
  refuseWhileRotating(ctx, keyId);
  const changed = profileMovedOn(ctx, keyId, from);
  if (changed) throw changed;
}

/**
 * Moves the profile's key to `destination(keyId)` unless `isThere(place)` says it is there already. The new
 * place must not hold another key; one that holds this very key (a move cut short) is taken as it is.
 */
export async function moveProfileKey(
  ctx: Context,
  isThere: (place: string) => boolean,
  destination: (keyId: string) => string,
): Promise<MoveResult> {
  const { keyId, place: from } = profileKey(ctx);
  refuseWhileRotating(ctx, keyId);
  if (isThere(from)) {
    // Said of the profile as it is now: a rotation may have switched it since this command read the settings.
    await ctx.settings.store.whileLocked(async () => refuseUnlessUnchanged(ctx, keyId, from));
    return { already: { profile: ctx.profile, api_key: keyId, place: from } };
  }
  let pem: string;
  try {
    pem = await readPrivateKeyPem(ctx, from);
    privateKeyFromPem(pem, from);
  } catch (error) {
    // A rotation in another shell may have switched the profile and removed the old key since it was read.
    throw profileMovedOn(ctx, keyId, from) ?? error;
  }
  const to = destination(keyId);
  const places = credentialPlaces(ctx.env);
  const there = places.read(to);
  if (there === undefined) await places.write(to, pem);
  else if (there !== pem) throw usageError(`${to} exists and holds another key`, 'remove it, or move the key elsewhere (--out)');
  if (places.read(to) !== pem) throw new TridentError(ExitCode.usage, `${to} did not give back the key written to it; nothing was changed`);
  return ctx.settings.store.whileLocked(async () => {
    try {
      refuseUnlessUnchanged(ctx, keyId, from);
    } catch (error) {
      if (there === undefined && placeClaims(ctx.configDir, to).length === 0) await places.remove(to).catch(() => false);
      throw error;
    }
    await ctx.settings.store.update(ctx.profile, { 'keys.privateKeyFile': to });
    const ours = isKeyringReference(from) || isInConfigDir(ctx.configDir, 'keys', from);
    const sharedWith = ours ? placeClaims(ctx.configDir, from, { profile: ctx.profile }) : [];
    const removed = ours && sharedWith.length === 0 && (await places.remove(from));
    return { moved: { profile: ctx.profile, api_key: keyId, from, to, removed }, sharedWith };
  });
}

/** Says what was done, on stderr, and prints the result. */
export async function reportMove(ctx: Context, result: MoveResult): Promise<void> {
  if ('already' in result) {
    const { profile, api_key: id, place } = result.already;
    ctx.log.info(`the key ${id} of profile "${profile}" is there already (${place}): nothing to move`);
    await ctx.output.object({ profile, api_key: id, from: place, to: place, removed: false });
    return;
  }
  const { moved, sharedWith } = result;
  const left = moved.removed
    ? ''
    : sharedWith.length > 0
      ? `; ${moved.from} stays: ${describeClaims(sharedWith)} still use${sharedWith.length === 1 ? 's' : ''} it`
      : `; ${moved.from} is yours and stays: remove it once nothing else uses it`;
  ctx.log.info(`profile "${moved.profile}" now keeps key ${moved.api_key} in ${moved.to}${left}`);
  await ctx.output.object(moved);
}
