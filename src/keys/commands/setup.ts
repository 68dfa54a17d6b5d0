// `trident keys setup`: onboarding, as gh's auth login and aws configure do it. The key id and private key the
// exchange gave are proved with one signed request before anything is written; then the private key goes where
// trident keeps keys (the OS keyring, else <config dir>/keys/) and the profile is pointed at it in one settings
// write, checked by the ledger like any other change of a profile's key. The file the user gave is left as it is.
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import { INPUT_CAPS, readStreamCapped } from '../../core/files/capped-read.js';
import { TRY_SANDBOX, keysBaseUrl, readNamedKeyFile } from '../connection.js';
import { checkKeyId } from '../key-ids.js';
import { changeProfile } from '../ledger/bind.js';
import { defaultKeyPlace } from '../mint/key-files.js';
import { normalizePem, privateKeyFromPem } from '../mint/keypair.js';
import { openSettledClient } from '../settled-client.js';
import { warnAboutProfileKey } from '../use-key.js';

const define = (group: GroupCommand) =>
  group
    .command('setup')
    .summary('set up a profile with the key id and private key the exchange gave you')
    .description(
      `Set up a profile with an API key made on the exchange's website: its id and the private key file it gave. The pair is checked with one signed request (GET /api_keys must list the key) before anything is written; then the private key is stored where trident keeps keys (the OS keyring, else <config dir>/keys/<id>.pem, 0600; TRIDENT_CREDENTIAL_STORE=keyring|file chooses) and the profile's keys.url, keys.keyId and keys.privateKeyFile point at it. The file you gave is left where it is. On a terminal, what no flag gives is asked for. Refused (exit 2) while a rotation of the profile is paused. To try trident on local services first: trident sandbox.`,
    )
    .option('--url <url>', "the keys service: production, demo or a base URL (default: the profile's keys.url, else asked)")
    .option('--key-id <id>', 'the id of the key, as the exchange shows it')
    .option('--private-key <file|->', 'the private key file the exchange gave ("-" reads it from stdin)')
    .option('--force', 'replace a different private key stored for this key id before');

export type SetupOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: SetupOptions): Promise<void> {
  const url =
    opts.url ?? ctx.settings.resolve('keys.url').value ?? (await askFor(ctx, '--url', 'Keys service (production, demo or a URL)'));
  const baseUrl = keysBaseUrl(url, opts.url !== undefined ? '--url' : 'keys service URL');
  const keyId = checkKeyId(opts.keyId ?? (await askFor(ctx, '--key-id', 'Key id')));
  const pem = normalizePem(await readGivenKey(ctx, opts.privateKey ?? (await askFor(ctx, '--private-key', 'Private key file'))));
  const what = opts.privateKey === '-' ? 'the private key on stdin' : 'the private key file';
  const signer = { keyId, privateKey: privateKeyFromPem(pem, what), source: what };

  const client = await openSettledClient(ctx, { baseUrl, signer });
  const listed = await client.list().catch((error: unknown) => {
    if (error instanceof TridentError && error.exitCode === ExitCode.auth) {
      throw new TridentError(ExitCode.auth, `the keys service did not accept key ${keyId} with this private key: ${error.message}`, {
        hint: 'check the key id and that the file is the private key the exchange gave for it; nothing was stored',
      });
    }
    throw error;
  });
  const key = listed.find((candidate) => candidate.api_key === keyId);
  if (!key) {
    throw new TridentError(ExitCode.auth, `the keys service does not list key ${keyId} among the keys of its account`, {
      hint: 'check the key id; nothing was stored',
    });
  }

  const place = await storeKey(ctx, keyId, pem, opts.force);
  const before = ctx.settings.store.values(ctx.profile)['keys.keyId'];
  try {
    await changeProfile(ctx.settings.store, ctx.profile, { 'keys.url': url, 'keys.keyId': keyId, 'keys.privateKeyFile': place.at });
  } catch (error) {
    if (place.written) await credentialPlaces(ctx.env).remove(place.at);
    throw error;
  }
  ctx.log.info(`profile "${ctx.profile}" now uses key ${keyId} (${place.at}) on ${baseUrl.href}; try: trident keys list`);
  if (before !== undefined && before !== keyId) ctx.log.info(`it used key ${before} before; that key is left as it is`);
  warnAboutProfileKey(ctx, keyId, key.scopes);
  await ctx.output.object({
    profile: ctx.profile,
    api_key: keyId,
    name: key.name,
    scopes: key.scopes,
    url: baseUrl.href,
    private_key_file: place.at,
  });
}

/** A value no flag gave: asked on a terminal, else a usage error naming the flag. */
async function askFor(ctx: Context, flag: string, question: string): Promise<string> {
  if (!ctx.prompter.interactive) throw usageError(`${flag} is needed: there is no terminal to ask on`, `pass ${flag}; ${TRY_SANDBOX}`);
  const answer = (await ctx.prompter.ask(`${question}: `)).trim();
  if (answer === '') throw usageError(`no ${flag.slice(2).replace('-', ' ')} given: nothing was set up`);
  return answer;
}

async function readGivenKey(ctx: Context, file: string): Promise<string> {
  if (file === '-') return readStreamCapped(ctx.io.stdin, INPUT_CAPS.key, 'the private key on stdin');
  try {
    return readNamedKeyFile(file);
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw usageError(`cannot read private key file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Stores the private key at the key's place in the default store; `written` when this run put it where nothing was. */
async function storeKey(ctx: Context, keyId: string, pem: string, force: boolean | undefined): Promise<{ at: string; written: boolean }> {
  const at = defaultKeyPlace(ctx, keyId);
  const places = credentialPlaces(ctx.env);
  const there = places.read(at);
  if (there !== undefined && normalizePem(there) === pem) return { at, written: false };
  if (there !== undefined && !force) throw usageError(`${at} holds another private key for key ${keyId}`, 'pass --force to replace it');
  await places.write(at, pem, { force: true });
  if (places.read(at) !== pem)
    throw new TridentError(ExitCode.usage, `${at} did not give back the key written to it; the profile was not changed`);
  // A key replaced with --force is not put back if the profile cannot be written: the user chose to replace it.
  return { at, written: there === undefined };
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys setup                                   # asks for what it needs',
    'trident keys setup --url demo --key-id <id> --private-key ~/Downloads/key.pem',
    'trident keys setup --url production --key-id "$KEY_ID" --private-key - < key.pem',
  ],
  run,
});
