// `--use`: point the current profile at a key (its id and where its private half is) in one settings write.
import { resolve } from 'node:path';
import { isKeyringReference } from '../core/credentials/reference.js';
import type { Context } from '../context.js';
import { PRIVATE_KEY_ENV } from './connection.js';

const OVERRIDING_ENV = ['TRIDENT_KEY_ID', 'TRIDENT_PRIVATE_KEY_FILE', PRIVATE_KEY_ENV];

/**
 * Returns the profile's name. Says so when the environment overrides what the profile now holds, and when
 * the key cannot write (the profile can then list keys, but not create, delete or rotate them).
 */
export async function useKey(ctx: Context, apiKey: string, privateKeyFile: string, scopes: readonly string[]): Promise<string> {
  const file = isKeyringReference(privateKeyFile) ? privateKeyFile : resolve(privateKeyFile);
  await ctx.settings.store.update(ctx.profile, { 'keys.keyId': apiKey, 'keys.privateKeyFile': file });
  ctx.log.info(`profile "${ctx.profile}" now uses key ${apiKey} (${file})`);
  warnAboutProfileKey(ctx, apiKey, scopes);
  return ctx.profile;
}

/** After a profile was pointed at a key: a key that cannot write, and an environment that overrides the profile. */
export function warnAboutProfileKey(ctx: Context, apiKey: string, scopes: readonly string[]): void {
  if (!scopes.includes('write')) {
    ctx.log.warn(`key ${apiKey} is read-only: with it, profile "${ctx.profile}" can list keys but not create, delete or rotate them`);
  }
  const overriding = OVERRIDING_ENV.filter((name) => ctx.env[name]);
  if (overriding.length > 0) {
    ctx.log.warn(`${overriding.join(', ')} set in the environment take${overriding.length === 1 ? 's' : ''} precedence over the profile`);
  }
}
