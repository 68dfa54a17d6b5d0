// The mint's tools for a real run: the command's client, probes signed by a candidate key, files on disk and
// entries of the OS keyring.
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import type { KeysClient } from '../client.js';
import { openKeysClient, signerFromFile, type KeysConnection } from '../connection.js';
import { crashHook } from '../crash-points.js';
import type { Signer } from '../signing.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { credentialStore } from '../../core/credentials/choose.js';
import { defaultKeyPlace, defaultKeyPlaces } from './key-files.js';
import type { MintTools } from './settle.js';

/** `clientFor` makes a client signed by another key (the rotation's deps, or the connection's). */
export function mintTools(
  ctx: Context,
  url: URL,
  client: MintTools['client'],
  clientFor: (signer: Signer) => Promise<Pick<KeysClient, 'list'>>,
  checkpoint = crashHook(ctx.env),
): MintTools {
  return {
    client,
    async accepts(id, privateKey) {
      const probe = await clientFor({ keyId: id, privateKey, source: 'the private key made for it' });
      return probe.list().then(
        () => true,
        (error: unknown) => {
          // 401: the signature is not this key's. 403: it is, but the key may not list keys (a subaccount's,
          // an FCM subtrader's, one without the read scope): the private half is the key's all the same.
          if (error instanceof TridentError && error.status === 403) return true;
          if (error instanceof TridentError && error.exitCode === ExitCode.auth) return false;
          throw error;
        },
      );
    },
    keyPath: (id) => defaultKeyPlace(ctx, id),
    defaultPlaces: (id) => defaultKeyPlaces(ctx, id),
    defaultsToKeyring: () => credentialStore(ctx) === 'keyring',
    places: credentialPlaces(ctx.env),
    async readKey(id, place) {
      try {
        return (await signerFromFile(ctx, id, place)).privateKey;
      } catch {
        return undefined;
      }
    },
    now: () => ctx.now(),
    configDir: ctx.configDir,
    url: url.href,
    checkpoint,
    warn: (message) => ctx.log.warn(message),
  };
}

export function liveTools(ctx: Context, connection: KeysConnection, client: KeysClient): MintTools {
  return mintTools(ctx, connection.baseUrl, client, (signer) => openKeysClient(ctx, { baseUrl: connection.baseUrl, signer }));
}
