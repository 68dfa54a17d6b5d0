// In-memory state of the keys sandbox: each key's public record, its public half, and whether it is rejected.
// Private halves are never stored.
import { randomUUID, type KeyObject } from 'node:crypto';

export interface SandboxApiKey {
  api_key: string;
  name: string;
  scopes: string[];
  /** null: a key whose creation time the service does not give (trident then goes by its own record of ages). */
  created_ts: string | null;
  subaccount: number | null;
  fcm_subtrader_id?: string;
}

export interface StoredKey {
  record: SandboxApiKey;
  publicKey: KeyObject;
  rejected: boolean;
}

export interface NewKey {
  name: string;
  publicKey: KeyObject;
  scopes: string[];
  subaccount: number | null;
  fcmSubtraderId?: string;
  /** A key that existed elsewhere, recreated as it was (the control API only; the service always picks). */
  apiKey?: string;
  createdTs?: string | null;
}

export class KeyStore {
  private readonly keys = new Map<string, StoredKey>();
  /** Every key's public half, kept after its delete: who held a key is still answerable once it is gone. */
  private readonly publicKeysEver = new Map<string, KeyObject>();

  constructor(private readonly now: () => number) {}

  add(input: NewKey, rejected = false): SandboxApiKey {
    if (input.apiKey !== undefined && this.publicKeysEver.has(input.apiKey)) throw new Error(`key ${input.apiKey} exists already`);
    const record: SandboxApiKey = {
      api_key: input.apiKey ?? randomUUID(),
      name: input.name,
      scopes: [...input.scopes],
      created_ts: input.createdTs === undefined ? new Date(this.now()).toISOString() : input.createdTs,
      subaccount: input.subaccount,
    };
    if (input.fcmSubtraderId !== undefined) record.fcm_subtrader_id = input.fcmSubtraderId;
    this.keys.set(record.api_key, { record, publicKey: input.publicKey, rejected });
    this.publicKeysEver.set(record.api_key, input.publicKey);
    return copy(record);
  }

  get(id: string): StoredKey | undefined {
    return this.keys.get(id);
  }

  /** The public half of a key that exists or once existed. */
  publicKeyEver(id: string): KeyObject | undefined {
    return this.publicKeysEver.get(id);
  }

  delete(id: string): boolean {
    return this.keys.delete(id);
  }

  reject(id: string): void {
    const key = this.keys.get(id);
    if (!key) throw new Error(`no such key: ${id}`);
    key.rejected = true;
  }

  /** Copies of the public records in creation order, optionally only those bound to one FCM subtrader. */
  list(fcmSubtraderId?: string): SandboxApiKey[] {
    const records = [...this.keys.values()].map((key) => key.record);
    return (fcmSubtraderId === undefined ? records : records.filter((r) => r.fcm_subtrader_id === fcmSubtraderId)).map(copy);
  }
}

function copy(record: SandboxApiKey): SandboxApiKey {
  return { ...record, scopes: [...record.scopes] };
}
