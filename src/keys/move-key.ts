// keys move-to-keyring and keys move-to-file: the profile's private key from one place to the other, with no
// moment where it is nowhere. The new place is written and read back, then the profile is pointed at it, and
// only then is the old place removed: an interruption anywhere leaves the key where the profile says, and at
// worst a copy in the other place as well. A file the user keeps outside the config dir is left where it is, and
// so is a place another profile names: the two profiles share the key, and the other one still signs from there.
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { credentialPlaces } from '../core/credentials/places.js';
import { isKeyringReference } from '../core/credentials/reference.js';
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import { isInConfigDir } from '../core/files/config-files.js';
import { readPrivateKeyPem } from './connection.js';
import { privateKeyFromPem } from './mint/keypair.js';

export type MovedKey = {
  profile: string;
  api_key: string;
  from: string;
  to: string;
  /** Whether the old place was removed (a file of the user's outside the config dir stays). */
  removed: boolean;
};

/** `sharedWith`: the other profiles that name the old place, which is why it stayed. */
export type MoveResult = { moved: MovedKey; sharedWith: string[] } | { already: { profile: string; api_key: string; place: string } };

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

/** The other profiles whose private key is at `place`: a move of this profile's key must leave it to them. */
function otherProfilesAt(ctx: Context, place: string): string[] {
  const store = ctx.settings.store;
  const same = (other: string | undefined) =>
    other !== undefined && (isKeyringReference(place) ? other === place : !isKeyringReference(other) && resolve(other) === resolve(place));
  return store.profiles().filter((profile) => profile !== ctx.profile && same(store.get(profile, 'keys.privateKeyFile')));
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
  if (isThere(from)) return { already: { profile: ctx.profile, api_key: keyId, place: from } };
  const pem = readPrivateKeyPem(ctx, from);
  privateKeyFromPem(pem, from);
  const to = destination(keyId);
  const places = credentialPlaces(ctx.env);
  const there = places.read(to);
  if (there === undefined) await places.write(to, pem);
  else if (there !== pem) throw usageError(`${to} exists and holds another key`, 'remove it, or move the key elsewhere (--out)');
  if (places.read(to) !== pem) throw new TridentError(ExitCode.usage, `${to} did not give back the key written to it; nothing was changed`);
  await ctx.settings.store.update(ctx.profile, { 'keys.privateKeyFile': to });
  const ours = isKeyringReference(from) || isInConfigDir(ctx.configDir, 'keys', from);
  const sharedWith = ours ? otherProfilesAt(ctx, from) : [];
  const removed = ours && sharedWith.length === 0 && (await places.remove(from));
  return { moved: { profile: ctx.profile, api_key: keyId, from, to, removed }, sharedWith };
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
      ? `; ${moved.from} stays: ${sharedWith.map((profile) => `profile "${profile}"`).join(' and ')} still use${sharedWith.length === 1 ? 's' : ''} it`
      : `; ${moved.from} is yours and stays: remove it once nothing else uses it`;
  ctx.log.info(`profile "${moved.profile}" now keeps key ${moved.api_key} in ${moved.to}${left}`);
  await ctx.output.object(moved);
}
