// What a client's disk holds: its profile, every private key anywhere below its root (config dir, --out
// files, the application's state) or in its keyring, and the rotations it has not finished.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { publicHalfOf } from '../helpers/held-keys.js';
import { dirAccount } from '../helpers/keyring-session.js';
import { PROFILE, PROFILES, type Client } from './clients.js';

export interface ProfileState {
  keyId?: string;
  privateKeyFile?: string;
  /** The public half of the private key in that file, if it holds one. */
  filePublicKey?: string;
}

/** The application's key (key-app.mjs keeps it in key.json). */
export interface AppState {
  keyId: string;
  publicKey?: string;
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const KEYRING_ENTRY = 'keyring:trident/';

/** The public half of the private key at `path`: a file, or an entry of the client's keyring. */
export function filePublicKey(path: string | undefined, client?: Client): string | undefined {
  if (path?.startsWith(KEYRING_ENTRY)) {
    const pem = client?.keyring?.lookup(path.slice(KEYRING_ENTRY.length));
    return pem === undefined ? undefined : publicHalfOf(pem);
  }
  if (path === undefined || !existsSync(path) || !statSync(path).isFile()) return undefined;
  return publicHalfOf(readFileSync(path, 'utf8'));
}

export function readProfile(client: Client, profile: string = PROFILE): ProfileState {
  const path = join(client.configDir, 'settings.json');
  if (!existsSync(path)) return {};
  const values = (readJson(path) as { profiles?: Record<string, Record<string, string | undefined>> }).profiles?.[profile] ?? {};
  const keyId = values['keys.keyId'];
  const privateKeyFile = values['keys.privateKeyFile'];
  const holds = filePublicKey(privateKeyFile, client);
  return { ...(keyId ? { keyId } : {}), ...(privateKeyFile ? { privateKeyFile } : {}), ...(holds ? { filePublicKey: holds } : {}) };
}

export function readApp(client: Client): AppState | undefined {
  if (!client.app) return undefined;
  const { id, pem } = readJson(join(client.app.dir, 'key.json')) as { id: string; pem: string };
  const publicKey = publicHalfOf(pem);
  return { keyId: id, ...(publicKey ? { publicKey } : {}) };
}

/**
 * The public halves of the private keys the client holds: each at a place that names it. A place names a key
 * when a profile of the config dir, an overlap record or a rotation journal points at it, when a report of the
 * client's own commands gave it as a key's private_key_file, when it is trident's own place for a key (its
 * config dir's keys/<id>.pem or keyring entry), or when it is the application's key. A private key anywhere
 * else, a half staged for a key being made above all (pending-<n>-<hex>.pem), is held by nobody: trident will
 * never use it.
 */
export function heldByClient(client: Client, reported: readonly string[]): Set<string> {
  const places = new Set<string>(reported);
  for (const profile of PROFILES) {
    const file = readProfile(client, profile).privateKeyFile;
    if (file) places.add(file);
  }
  for (const { file } of keptKeys(client)) if (file) places.add(file);
  for (const file of journalPlaces(client)) places.add(file);
  const keysDir = join(client.configDir, 'keys');
  if (existsSync(keysDir)) {
    for (const name of readdirSync(keysDir)) if (TRIDENTS_OWN_FILE.test(name)) places.add(join(keysDir, name));
  }
  const held = new Set<string>();
  for (const place of places) {
    const half = filePublicKey(place, client);
    if (half !== undefined) held.add(half);
  }
  const own = dirAccount(client.configDir, 'keys/');
  for (const { account, secret } of client.keyring?.entries() ?? []) {
    const half = account.startsWith(own) ? publicHalfOf(secret) : undefined;
    if (half !== undefined) held.add(half);
  }
  const app = readApp(client);
  if (app?.publicKey) held.add(app.publicKey);
  return held;
}

/** trident's own file for a key: <id>.pem, not a half staged while a key is made. */
const TRIDENTS_OWN_FILE = /^(?!pending-)[^/]+\.pem$/;

/** The private key files the client's rotation journals name: the old key's, the new key's and its target. */
function journalPlaces(client: Client): string[] {
  const dir = join(client.configDir, 'rotations');
  return journalsLeft(client).flatMap((name) => {
    try {
      const journal = readJson(join(dir, name)) as {
        private_key_file?: string | null;
        target_file?: string | null;
        old_key?: { private_key_file?: string | null };
      };
      return [journal.private_key_file, journal.target_file, journal.old_key?.private_key_file].filter(
        (file): file is string => typeof file === 'string',
      );
    } catch {
      return []; // being replaced, or removed meanwhile
    }
  });
}

/** The names sent for the key requests the config dir's ledger still has pending (pending/*.json `sent_name`). */
export function pendingRequests(client: Client): string[] {
  const dir = join(client.configDir, 'pending');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      try {
        const record = readJson(join(dir, name)) as { sent_name?: unknown };
        return typeof record.sent_name === 'string' ? [record.sent_name] : [];
      } catch {
        return []; // being replaced, or removed meanwhile
      }
    });
}

/** Rotation journals left in the config dir. */
export function journalsLeft(client: Client): string[] {
  const dir = join(client.configDir, 'rotations');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
}

/** Old keys a rotation kept (--keep-old-for) that no prune has deleted yet. */
export function overlapRecordsLeft(client: Client): string[] {
  const dir = join(client.configDir, 'overlap');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.json')) : [];
}

/** The keys the client's overlap records keep, the earliest due first, with where each one's private half is. */
export function keptKeys(client: Client): Array<{ id: string; file: string | null }> {
  const dir = join(client.configDir, 'overlap');
  return overlapRecordsLeft(client)
    .flatMap((name) => {
      try {
        const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as {
          api_key: string;
          private_key_file: string | null;
          kept_until: string;
        };
        return [record];
      } catch {
        return []; // being replaced, or removed meanwhile
      }
    })
    .sort((a, b) => Date.parse(a.kept_until) - Date.parse(b.kept_until))
    .map((record) => ({ id: record.api_key, file: record.private_key_file }));
}
