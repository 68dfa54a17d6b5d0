import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { usageError } from '../../core/errors.js';
import { resolveConnection } from '../connection.js';
import { openSettledClient } from '../settled-client.js';
import { STDOUT, outPath, preflightKeyTarget } from '../mint/key-files.js';
import { liveTools } from '../mint/live-tools.js';
import { addNewKeyOptions, makeKeyPair, printNewKey } from '../new-key.js';
import { preflightPending } from '../mint/pending.js';
import { stdoutWriteError } from '../../core/term/stdout-failure.js';
import { checkUse, parseNewKey } from '../rules.js';
import { useKey } from '../use-key.js';

const define = (group: GroupCommand) =>
  addNewKeyOptions(
    group
      .command('generate')
      .summary('have the service mint a new key pair')
      .description(
        'Have the service mint a new key pair. The private key, which the service shows only once, is checked to be a usable key and stored before anything is printed: by default in the OS keyring (keyring:trident/<dir tag>/keys/<api_key>), else in <config dir>/keys/<api_key>.pem (0600); TRIDENT_CREDENTIAL_STORE=keyring|file chooses. If it cannot be stored or is no key, the new key is deleted on the service again (exit 8). A pending record (<config dir>/pending/) is written before the request and removed once the key is stored: if the answer is lost or is a 5xx, or trident is killed meanwhile, the request is not repeated and the record is settled (now, or by the next keys command against the service): the new key, which nobody holds, is deleted: trident adds a tag to the name it sends (<name>~<8 hex>, new for each request and shown in the output), so the key of that request is provably this one and no key someone else named alike is ever touched. With --out - the PEM goes to stdout and the key id to stderr.',
      )
      .option('--out <file|->', 'store the private key in this file ("-" = stdout) instead of the keyring or <config dir>/keys/'),
  );

export type GenerateOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: GenerateOptions): Promise<void> {
  const key = parseNewKey(opts);
  checkUse(key, opts.use);
  if (opts.use && opts.out === STDOUT) throw usageError('--use needs the private key in a file, not on stdout (--out -)');
  const connection = await resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  preflightKeyTarget(ctx, opts.out, { force: opts.force });
  preflightPending(ctx.configDir);

  const target = opts.out === STDOUT ? STDOUT : (outPath(opts.out) ?? null);
  // The PEM must really reach the reader: a closed pipe or a full disk must not leave a key nobody holds.
  const deliver = async (pem: string) => {
    ctx.stdoutWatch.finishWorkIfStdoutFails();
    await ctx.output.writeConfirmed(pem).catch((error: NodeJS.ErrnoException) => Promise.reject(stdoutWriteError(error)));
  };
  const made = await makeKeyPair(ctx, liveTools(ctx, connection, client), { key, target, force: opts.force }, { deliver });
  const { apiKey, warning } = made;
  const path = made.file!;
  if (path === STDOUT) {
    if (warning) ctx.log.warn(`the keys service says: ${warning}`);
    ctx.log.info(`generated key ${apiKey.api_key} ("${apiKey.name}"); its private key went to stdout and nowhere else`);
    return;
  }
  const used = opts.use ? await useKey(ctx, apiKey.api_key, path, apiKey.scopes) : undefined;
  await printNewKey(ctx, { api_key: apiKey, private_key_file: path, ...(warning ? { warning } : {}), ...(used ? { used } : {}) });
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys generate --name ci-deploy',
    'trident keys generate --name reader --scopes read --out ./reader.pem -o json',
    'trident keys generate --name laptop --use',
    'trident keys generate --name desk-3 --subaccount 3 --out ./desk-3.pem',
    'trident keys generate --name once --out - > key.pem',
  ],
  run,
});
