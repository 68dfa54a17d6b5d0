// The keys sandbox: a faithful local API-key service (list, create from a public key, generate, delete), with
// the public exchange's request signing, error bodies and statuses, served by http/server on loopback.
import { createPublicKey } from 'node:crypto';
import { authenticate } from './auth.js';
import { createBootstrapKey, type BootstrapKey } from './bootstrap.js';
import { generateRsaPair, parsePublicKeyPem } from './crypto.js';
import { forbidden, invalid, methodNotAllowed, notFound } from './errors.js';
import { isFcmSubtraderId, parseKeyRequest } from './input.js';
import { KeyEventLog, type KeyEvent } from './events.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';
import { KeyStore, type SandboxApiKey } from './store.js';
import { json, startServer, type Handler, type RunningServer, type SandboxRequest, type SandboxResponse } from '../http/server.js';

export type { SandboxApiKey } from './store.js';
export type { KeyEvent } from './events.js';

export interface KeysSandboxOptions {
  host?: string;
  port?: number;
  /** The bootstrap key is written here. */
  dir: string;
  basePath?: string;
  now?: () => number;
  clockToleranceMs?: number;
  /** Create/generate for these subtrader ids answer with the no-cap warning. */
  fcmSubtradersWithoutCap?: string[];
  /** Token buckets per read/write class, as the exchange's; none by default. */
  rateLimit?: RateLimit;
}

export interface KeysControl {
  listKeys(): SandboxApiKey[];
  /**
   * A key made outside the API. `apiKey` and `createdTs` recreate a key some other service held (a test's fixture
   * of an earlier release's state); by default the sandbox picks the id and the time is now.
   */
  addKey(input: {
    name: string;
    publicKeyPem: string;
    scopes?: string[];
    subaccount?: number | null;
    fcmSubtraderId?: string;
    apiKey?: string;
    createdTs?: string | null;
  }): SandboxApiKey;
  /** From now on requests signed by this key get 401 INCORRECT_API_KEY_SIGNATURE. */
  rejectKey(id: string): void;
  /** Keys created or generated while on are rejected like rejectKey. */
  rejectNewKeys(on: boolean): void;
  /** A key's public half (SPKI PEM), undefined for a key that does not exist: who holds its private half? */
  publicKeyPem(id: string): string | undefined;
  /**
   * From now on, generate answers with `mangle(private key)` instead of the private key (a truncated PEM, say);
   * the key is minted as usual. undefined restores honest answers.
   */
  mangleGeneratedKeys(mangle: ((privateKeyPem: string) => string) | undefined): void;
  /** Every key made or deleted through the API so far, oldest first (keys added here are not in it). */
  events(): KeyEvent[];
  /** The public half (SPKI PEM) of a key that exists or once existed, even deleted since. */
  publicKeyPemEver(id: string): string | undefined;
}

export interface KeysSandbox {
  /** Origin + base path, e.g. http://127.0.0.1:40123/trade-api/v2 */
  url: string;
  server: RunningServer;
  bootstrap: BootstrapKey;
  control: KeysControl;
  close(): Promise<void>;
}

type Route = { kind: 'collection' } | { kind: 'generate' } | { kind: 'key'; id: string };

const ALLOWED: Record<Route['kind'], string[]> = { collection: ['GET', 'POST'], generate: ['POST'], key: ['DELETE'] };

export async function startKeysSandbox(options: KeysSandboxOptions): Promise<KeysSandbox> {
  const basePath = (options.basePath ?? '/trade-api/v2').replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const tolerance = options.clockToleranceMs ?? 30_000;
  const withoutCap = new Set(options.fcmSubtradersWithoutCap ?? []);
  const store = new KeyStore(now);
  const events = new KeyEventLog();
  let rejectNew = false;
  let mangle: ((privateKeyPem: string) => string) | undefined;
  const limiter = options.rateLimit && new RateLimiter(options.rateLimit);

  const bootstrap = await createBootstrapKey(store, options.dir);

  async function createOrGenerate(req: SandboxRequest, generate: boolean, signer: string): Promise<SandboxResponse> {
    const parsed = parseKeyRequest(req.body, !generate);
    if (!parsed.ok) return invalid(parsed.message, parsed.details);
    const input = parsed.value;
    let privateKeyPem: string | undefined;
    let publicKey = input.publicKey;
    if (generate) {
      const pair = await generateRsaPair();
      privateKeyPem = pair.privateKeyPem;
      publicKey = createPublicKey(pair.publicKeyPem);
    }
    const record = store.add(
      { name: input.name, publicKey: publicKey!, scopes: input.scopes, subaccount: input.subaccount, fcmSubtraderId: input.fcmSubtraderId },
      rejectNew,
    );
    events.record({ type: generate ? 'generate' : 'create', id: record.api_key, name: record.name, signer, at: now() });
    const body =
      privateKeyPem === undefined ? { api_key: record } : { api_key: record, private_key: mangle ? mangle(privateKeyPem) : privateKeyPem };
    return json(201, { ...body, ...warningFor(withoutCap, input.fcmSubtraderId) });
  }

  const handler: Handler = async (req) => {
    const limited = limiter?.check(req.method);
    if (limited) return limited;
    const auth = authenticate(req, store, now(), tolerance);
    if (!auth.ok) return auth.response;
    const target = routeOf(basePath, req.path);
    if (!target) return notFound(`no such endpoint: ${req.path}`);
    const method = req.method.toUpperCase();
    if (!ALLOWED[target.kind].includes(method)) return methodNotAllowed(method, ALLOWED[target.kind]);

    const denied = permissionError(auth.key.record, method);
    if (denied) return denied;

    const signer = auth.key.record.api_key;
    if (target.kind === 'generate') return createOrGenerate(req, true, signer);
    if (target.kind === 'key') {
      const name = store.get(target.id)?.record.name;
      if (name === undefined || !store.delete(target.id)) return notFound('api key not found');
      events.record({ type: 'delete', id: target.id, name, signer, at: now() });
      return { status: 204 };
    }
    if (method === 'POST') return createOrGenerate(req, false, signer);
    const filter = req.url.searchParams.get('fcm_subtrader_id');
    if (filter !== null && !isFcmSubtraderId(filter)) return invalid('fcm_subtrader_id must be shaped <user_id>_<suffix>');
    return json(200, { api_keys: store.list(filter ?? undefined) });
  };

  const server = await startServer({ host: options.host ?? '127.0.0.1', port: options.port ?? 0, handler });

  const control: KeysControl = {
    listKeys: () => store.list(),
    addKey(input) {
      const parsed = parsePublicKeyPem(input.publicKeyPem);
      if (!parsed.ok) throw new Error(parsed.reason);
      return store.add({
        name: input.name,
        publicKey: parsed.key,
        scopes: input.scopes ?? ['read', 'write'],
        subaccount: input.subaccount ?? null,
        fcmSubtraderId: input.fcmSubtraderId,
        apiKey: input.apiKey,
        createdTs: input.createdTs,
      });
    },
    rejectKey: (id) => store.reject(id),
    rejectNewKeys(on) {
      rejectNew = on;
    },
    publicKeyPem: (id) => store.get(id)?.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    publicKeyPemEver: (id) => store.publicKeyEver(id)?.export({ type: 'spki', format: 'pem' }).toString(),
    events: () => events.all(),
    mangleGeneratedKeys(next) {
      mangle = next;
    },
  };

  return { url: `${server.origin}${basePath}`, server, bootstrap, control, close: () => server.close() };
}

/** Which of the service's routes a path below the base path is, if any. */
function routeOf(basePath: string, path: string): Route | undefined {
  if (!path.startsWith(`${basePath}/`)) return undefined;
  const rest = path.slice(basePath.length);
  if (rest === '/api_keys') return { kind: 'collection' };
  if (rest === '/api_keys/generate') return { kind: 'generate' };
  const match = /^\/api_keys\/([^/]+)$/.exec(rest);
  if (!match) return undefined;
  try {
    return { kind: 'key', id: decodeURIComponent(match[1]!) };
  } catch {
    return undefined;
  }
}

/** The exchange still makes a key for an FCM subtrader without an initial-margin cap, and says so. */
function warningFor(withoutCap: Set<string>, fcmSubtraderId: string | undefined): { warning?: string } {
  if (fcmSubtraderId === undefined || !withoutCap.has(fcmSubtraderId)) return {};
  return { warning: `FCM subtrader ${fcmSubtraderId} has no initial-margin cap; the key was still minted` };
}

/** Every route here manages API keys, so subaccount keys are refused everywhere, like FCM subtrader keys. */
function permissionError(key: SandboxApiKey, method: string): SandboxResponse | undefined {
  if (key.fcm_subtrader_id !== undefined) {
    return forbidden('a key bound to an FCM subtrader cannot be used on REST endpoints', 'FCM_SUBTRADER_KEY');
  }
  if (key.subaccount !== null) return forbidden('a key restricted to a subaccount cannot manage API keys', 'SUBACCOUNT_KEY');
  if (!key.scopes.includes('read')) return forbidden('this key lacks the read scope', 'MISSING_SCOPE_READ');
  if (method !== 'GET' && !key.scopes.includes('write')) return forbidden('this key lacks the write scope', 'MISSING_SCOPE_WRITE');
  return undefined;
}
