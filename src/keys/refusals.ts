// What to tell a person whose request the keys service refused (401/403): the service's code says why.
import { ExitCode, TridentError } from '../core/errors.js';
import { KEYS_URL_ALIASES, type KeysUrlAlias } from './base-url.js';
import type { Signer } from './signing.js';

// The exchange's two documented environments: a key works only in the one that issued it.
// Their hosts, the recommended one (the alias's URL) and the other documented one.
const ENVIRONMENTS: Record<KeysUrlAlias, { hosts: string[]; other: KeysUrlAlias }> = {
  production: { hosts: [new URL(KEYS_URL_ALIASES.production).hostname, 'api.elections.kalshi.com'], other: 'demo' },
  demo: { hosts: [new URL(KEYS_URL_ALIASES.demo).hostname, 'demo-api.kalshi.co'], other: 'production' },
};

/** A key the service does not know: blame the environments only when the URL is one of the exchange's. */
function unknownKeyHint(key: string, baseUrl: URL | undefined): string {
  const found = Object.entries(ENVIRONMENTS).find(([, env]) => env.hosts.includes(baseUrl?.hostname.toLowerCase() ?? ''));
  if (found === undefined)
    return `${key} is unknown to this service: it may have been deleted, or belong to another service; check --key-id and --url`;
  const [name, env] = found;
  return `${key} is unknown to the ${name} environment: keys work only in the environment that issued them; a ${env.other} key needs --url ${env.other} (${KEYS_URL_ALIASES[env.other]})`;
}

/** What was refused, where that changes the likely reason: an upload of a public key (create). */
export type RefusedCall = 'upload';

function hintFor(error: TridentError, signer: Signer, baseUrl: URL | undefined, call?: RefusedCall): string {
  if (call === 'upload' && error.status === 403) {
    return 'the exchange reserves creating a key from an uploaded public key to its higher API usage levels (Premier, Market Maker); trident keys generate works at every level (the service makes the pair and trident stores the private half)';
  }
  const code = (error.code ?? '').toLowerCase();
  const key = `key ${signer.keyId}`;
  if (code === 'header_timestamp_expired') {
    return "the request's timestamp was outside the service's tolerance: check this machine's clock (NTP); it must be within seconds of the real time";
  }
  if (code === 'incorrect_api_key_signature') {
    return `the signature did not verify: check that ${signer.source} is the private key of ${key}, and that this machine's clock is right`;
  }
  if (code === 'incorrect_api_key' || code === 'api_key_not_found') return unknownKeyHint(key, baseUrl);
  if (error.status === 403) {
    return `${key} is not allowed to do this: it may lack the write scope, be restricted to a subaccount (such keys cannot manage API keys), or be bound to an FCM subtrader (no REST access)`;
  }
  return `check the key id (--key-id, TRIDENT_KEY_ID, keys.keyId) and its private key (${signer.source})`;
}

/** Adds a hint to an authentication or permission error; other errors pass through unchanged. */
export function explainRefusal(error: unknown, signer: Signer, baseUrl?: URL, call?: RefusedCall): unknown {
  if (!(error instanceof TridentError) || error.exitCode !== ExitCode.auth) return error;
  const hint = [hintFor(error, signer, baseUrl, call), error.hint].filter(Boolean).join('; ');
  return new TridentError(error.exitCode, error.message, {
    hint,
    status: error.status,
    code: error.code,
    requestId: error.requestId,
    cause: error,
  });
}
