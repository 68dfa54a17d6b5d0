import { resolve } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { usageError } from '../../core/errors.js';
import { readFileOrStdin } from '../../core/term/read-input.js';
import type { NewKey } from '../client.js';
import { resolveConnection } from '../connection.js';
import { openSettledClient } from '../settled-client.js';
import { STDOUT, outPath, preflightKeyTarget, stagingDir } from '../mint/key-files.js';
import { RSA_BITS, generateRsaKeyPair, publicKeyForUpload, type RsaBits } from '../mint/keypair.js';
import { liveTools } from '../mint/live-tools.js';
import { mintKey } from '../mint/mint.js';
import { addNewKeyOptions, makeKeyPair, printNewKey, type NewKeyResult } from '../new-key.js';
import { preflightPending } from '../mint/pending.js';
import { checkUse, parseNewKey } from '../rules.js';
import { useKey } from '../use-key.js';

async function finish(ctx: Context, opts: CreateOptions, result: NewKeyResult): Promise<void> {
  const file = result.private_key_file;
  const used = opts.use && file !== null ? await useKey(ctx, result.api_key.api_key, file, result.api_key.scopes) : undefined;
  await printNewKey(ctx, used ? { ...result, used } : result);
}

/** --public-key: upload a key made elsewhere (its public half only, if a private key was given). */
async function createFromGivenKey(ctx: Context, opts: CreateOptions & { publicKey: string }, key: NewKey): Promise<void> {
  if (opts.out !== undefined || opts.bits !== undefined) {
    throw usageError('--out and --bits are for a key pair made here; with --public-key the private key stays where it is');
  }
  const what = opts.publicKey === STDOUT ? 'the key on stdin' : `--public-key ${opts.publicKey}`;
  const upload = publicKeyForUpload(await readFileOrStdin(ctx.io.stdin, opts.publicKey, `--public-key ${opts.publicKey}`), what);
  const privateKeyFile = upload.fromPrivateKey && opts.publicKey !== STDOUT ? resolve(opts.publicKey) : null;
  if (opts.use && privateKeyFile === null) {
    throw usageError('--use needs the private key in a file: pass the private key file as --public-key (only its public half is uploaded)');
  }
  const connection = await resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  preflightPending(ctx.configDir);
  if (upload.fromPrivateKey) ctx.log.info(`${what} is a private key: uploading only its public half (${upload.description})`);
  // The private half is the user's: a lost answer leaves no key nobody holds, the record only says what was made.
  const created = await mintKey(liveTools(ctx, connection, client), {
    key,
    target: privateKeyFile,
    upload: { publicKeyPem: upload.publicKeyPem },
  });
  await finish(ctx, opts, {
    api_key: created.apiKey,
    private_key_file: privateKeyFile,
    ...(upload.fromPrivateKey ? { public_key_from_private_key: true } : {}),
    ...(created.warning ? { warning: created.warning } : {}),
  });
}

/** A pair made here: its private half staged before the upload, kept whatever becomes of the answer. */
async function createLocalPair(ctx: Context, opts: CreateOptions, key: NewKey): Promise<void> {
  if (opts.out === STDOUT) throw usageError('create stores the private key in a file; --out - is not available (keys generate --out - is)');
  const bits = Number(opts.bits ?? 2048) as RsaBits;
  const connection = await resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  preflightKeyTarget(ctx, opts.out, { force: opts.force });
  preflightPending(ctx.configDir);
  const pair = { pem: await generateRsaKeyPair(bits), stagingDir: stagingDir(ctx, opts.out) };
  const request = { key, target: outPath(opts.out) ?? null, force: opts.force, pair };
  const created = await makeKeyPair(ctx, liveTools(ctx, connection, client), request);
  const path = created.file!;
  await finish(ctx, opts, { api_key: created.apiKey, private_key_file: path, ...(created.warning ? { warning: created.warning } : {}) });
}

const define = (group: GroupCommand) =>
  addNewKeyOptions(
    group
      .command('create')
      .summary('create a key from a public key, or from a pair made here')
      .description(
        'Create a key by uploading a public key. Without --public-key an RSA pair is generated here: the private key is stored (by default in the OS keyring, else 0600 in <config dir>/keys/<api_key>.pem) and only the public half is uploaded. --public-key takes a PEM file (or - for stdin): an RSA (2048 bits or more) or Ed25519 public key; given a private key, only its public half is uploaded. A pending record (<config dir>/pending/) names the staged private key until it is in place: if the answer is lost or trident is killed, the next keys command against the service keeps the key (a request signed with the staged key proves it) or removes the staged file. A pair made here is sent under a tagged name (<name>~<8 hex>, new for each request); an uploaded key keeps the name as given.',
      )
      .option('--public-key <file|->', 'upload this public key (PEM; "-" = stdin) instead of generating a pair here')
      .option('--out <file>', 'store the generated private key in this file instead of the keyring or <config dir>/keys/')
      .addOption(new Option('--bits <n>', 'RSA key size for a pair generated here (default 2048)').choices(RSA_BITS.map(String))),
  );

export type CreateOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  const key = parseNewKey(opts);
  checkUse(key, opts.use);
  if (opts.publicKey !== undefined) await createFromGivenKey(ctx, { ...opts, publicKey: opts.publicKey }, key);
  else await createLocalPair(ctx, opts, key);
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys create --name laptop',
    'trident keys create --name hsm-key --public-key public.pem',
    'openssl pkey -in key.pem -pubout | trident keys create --name ci --public-key -',
    'trident keys create --name trader --bits 4096 --scopes read,write --use -o json',
  ],
  run,
});
