// `keys create` without --public-key: an RSA pair made here, its private half staged before the upload and
// kept whatever becomes of the answer (a lost one is found by the staged key's signature).
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import { finishBeforeInterrupt } from '../../core/term/interrupts.js';
import { DEFAULT_SCOPES, type CreatedKey, type KeysClient, type NewKey } from '../client.js';
import type { KeysConnection } from '../connection.js';
import { crashHook } from '../crash-points.js';
import { defaultKeyPath, outPath, stagePrivateKey, stagingDir } from './key-files.js';
import { generateRsaKeyPair, privateKeyFromPem, type RsaBits } from './keypair.js';
import { answerLost, findLostCreate, notListedYet } from './lost-answer.js';
import { unknownOutcomeError } from './outcomes.js';
import { removePending, writePending } from './pending.js';

/**
 * A pair made here: the private key is written (0600) under a provisional name before the upload, moved to its
 * place once the service has given the key its id, and removed if the upload fails.
 */
export async function makeAndUploadPair(
  ctx: Context,
  connection: KeysConnection,
  client: KeysClient,
  key: NewKey,
  { bits, out: outFlag, force }: { bits: RsaBits; out?: string; force?: boolean },
): Promise<{ created: CreatedKey; path: string }> {
  const pair = await generateRsaKeyPair(bits);
  const staged = await stagePrivateKey(stagingDir(ctx, outFlag), pair.privateKeyPem);
  const out = outPath(outFlag);
  // The record names the staged file: a process killed from here on leaves the next command to keep the key
  // with it (signing with it proves the key ours), or to remove it.
  const pending = await writePending(
    ctx.configDir,
    { verb: 'create', name: key.name, url: connection.baseUrl.href, before: null, scopes: key.scopes ?? DEFAULT_SCOPES, staged_file: staged.path, target_file: out ?? null, force: Boolean(force) },
    ctx.now(),
  );
  const checkpoint = crashHook(ctx.env);
  await checkpoint('pending');

  // From the upload to the private key in place, an interrupt waits (see core/term/interrupts.ts).
  return finishBeforeInterrupt('making the key', async () => {
    let created: CreatedKey;
    try {
      created = await client.create({ ...key, publicKeyPem: pair.publicKeyPem });
    } catch (error) {
      if (!answerLost(error)) {
        await staged.discard();
        await removePending(pending);
        throw error;
      }
      const found = await findLostCreate(ctx, connection, client, key.name, privateKeyFromPem(pair.privateKeyPem, 'the new private key'));
      // No key accepts the new private half yet: the service may still make it, so it stays staged, recorded.
      if (found === null) throw notListedYet(error, 'create', pending);
      // The key may exist now: its private half stays staged, and the pending record for the next command.
      if (found === undefined) throw unknownOutcomeError(error, 'create', key.name, staged.path);
      ctx.log.warn(`the answer to the create request was lost, but key ${found.api_key} named "${key.name}" accepts the new private key: it is this one`);
      created = { apiKey: found };
    }
    await checkpoint('answered');
    const id = created.apiKey.api_key;
    const path = out ?? defaultKeyPath(ctx, id);
    try {
      await staged.place(path, { force });
    } catch (error) {
      await removePending(pending);
      throw new TridentError(ExitCode.usage, `key ${id} was created, but its private key could not be moved to ${path} (${(error as Error).message}); it is at ${staged.path}`, {
        hint: `move it yourself: mv ${staged.path} ${path}`,
        cause: error,
      });
    }
    await checkpoint('stored');
    await removePending(pending);
    return { created, path };
  });
}
