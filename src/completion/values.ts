// `trident __complete <kind> -- <words typed>`: the values a completion script offers where they depend on the
// user's own settings and services, as gh's dynamic completion does: profile names, setting keys, the catalog's
// stores (its sync cursors) and the key ids of the keys service. One value a line on stdout, and nothing else
// ever: a failure prints nothing, so that a shell never shows an error. The scripts pass --timeout 2 --retries 0,
// so that a service that does not answer holds a TAB for two seconds at most. Key ids are kept for a minute in
// the config dir (0600, read back only as trusted as every other file there): each TAB would otherwise sign
// and send a request.
import { join } from 'node:path';
import { connect as connectCatalog } from '../catalog/connection.js';
import type { Context } from '../context.js';
import { readConfigFile } from '../core/files/config-files.js';
import { writeSecretFile } from '../core/files/secret-file.js';
import { SETTING_KEYS, Settings } from '../core/files/settings.js';
import { openKeysClient, resolveConnection } from '../keys/connection.js';

export const KINDS = ['profiles', 'settings', 'stores', 'key-ids'] as const;
export type Kind = (typeof KINDS)[number];

/** How long listed key ids are offered without asking the service again. */
export const KEY_IDS_FRESH_MS = 60_000;

const cacheFile = (ctx: Context) => join(ctx.configDir, 'completion', `key-ids-${ctx.profile}.json`);

export async function run(ctx: Context, _opts: object, kind: string, ...words: string[]): Promise<void> {
  try {
    const values = (await valuesOf(withTypedProfile(ctx, words), kind)).filter(isOneWord);
    await ctx.output.write(values.map((value) => `${value}\n`).join(''));
  } catch (error) {
    // Nothing on stdout, nor on stderr unless --debug asks: a shell in the middle of a TAB has nowhere to show it.
    ctx.log.debug(`no values for ${kind}: ${(error as Error).message}`);
  }
}

/** A value is offered only as one line a shell can take as a word: a line break or terminal escape in a
 * store name or key id would make it several words, or write to the user's terminal. */
function isOneWord(value: string): boolean {
  return value !== '' && !/[\u0000-\u001f\u007f]/.test(value);
}

async function valuesOf(ctx: Context, kind: string): Promise<string[]> {
  switch (kind as Kind) {
    case 'profiles':
      return [...new Set(['default', ...ctx.settings.store.profiles()])];
    case 'settings':
      return [...SETTING_KEYS];
    case 'stores':
      return [...new Set((await (await connectCatalog(ctx, {})).cursors()).map((cursor) => cursor.parser_name))];
    case 'key-ids':
      return keyIds(ctx);
    default:
      return [];
  }
}

/** A `--profile` on the line being completed names the profile whose services and keys to ask. */
function withTypedProfile(ctx: Context, words: string[]): Context {
  let profile: string | undefined;
  words.forEach((word, at) => {
    if (word === '--profile' && words[at + 1] !== undefined) profile = words[at + 1];
    else if (word.startsWith('--profile=')) profile = word.slice('--profile='.length);
  });
  if (profile === undefined || profile === ctx.profile) return ctx;
  return { ...ctx, profile, settings: new Settings(ctx.settings.store, profile, ctx.env) };
}

async function keyIds(ctx: Context): Promise<string[]> {
  const file = cacheFile(ctx);
  const cached = readCache(ctx, file);
  if (cached && ctx.now().getTime() - cached.at >= 0 && ctx.now().getTime() - cached.at < KEY_IDS_FRESH_MS) return cached.ids;
  const keys = await (await openKeysClient(ctx, await resolveConnection(ctx, {}))).list();
  const ids = keys.map((key) => key.api_key);
  // A cache that cannot be written (a read-only config dir) costs the next TAB a request, nothing more.
  await writeSecretFile(file, JSON.stringify({ at: ctx.now().getTime(), ids }), { force: true }).catch((error: unknown) =>
    ctx.log.debug(`completion cache not written: ${(error as Error).message}`),
  );
  return ids;
}

function readCache(ctx: Context, file: string): { at: number; ids: string[] } | undefined {
  try {
    const parsed = JSON.parse(readConfigFile(ctx.configDir, file, 'completion cache') ?? 'null') as { at?: unknown; ids?: unknown } | null;
    if (typeof parsed?.at !== 'number' || !Array.isArray(parsed.ids) || !parsed.ids.every((id) => typeof id === 'string')) return undefined;
    return { at: parsed.at, ids: parsed.ids as string[] };
  } catch {
    return undefined;
  }
}
