// What a client's disk holds: its profile, every private key anywhere below its root (config dir, --out
// files, the application's state) or in its keyring, and the rotations it has not finished.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { heldPublicKeys, publicHalfOf } from '../helpers/held-keys.js';
import { dirAccount } from '../helpers/keyring-session.js';
import { PROFILE, type Client } from './clients.js';

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

function directoriesBelow(root: string): string[] {
  if (!existsSync(root)) return [];
  const dirs = [root];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) dirs.push(...directoriesBelow(join(root, entry.name)));
  }
  return dirs;
}

/**
 * The public halves of every private key the client holds: PEM files anywhere below its root, its config dir's
 * entries in the keyring (which other clients' config dirs may share), and the application's key.
 */
export function heldByClient(client: Client): Set<string> {
  const held = heldPublicKeys(...directoriesBelow(client.root));
  const own = dirAccount(client.configDir, '');
  for (const { account, secret } of client.keyring?.entries() ?? []) {
    const half = account.startsWith(own) ? publicHalfOf(secret) : undefined;
    if (half !== undefined) held.add(half);
  }
  const app = readApp(client);
  if (app?.publicKey) held.add(app.publicKey);
  return held;
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
