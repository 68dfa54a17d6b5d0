// A typed client for the key service: list, create, generate, delete. Plain methods: no commander, no
// printing, no settings. Answers are normalized here into one ApiKey (`api_key`, `name`, `scopes`,
// `created_ts`, `subaccount`), whether the service answered in that shape (nested create/generate answers, as
// the sandbox serves) or in the public exchange's (`api_key_id`, flat create/generate answers, 201/204).
import { ExitCode, TridentError } from '../core/errors.js';
import type { HttpClient, HttpResponse, OnRateLimited } from '../core/http/client.js';
import type { Method } from '../core/http/retry.js';
import { joinUrl, type QueryValue } from '../core/http/url.js';
import { keyIdProblem } from './key-ids.js';
import { explainRefusal, type RefusedCall } from './refusals.js';
import { signedHeaders, type Signer } from './signing.js';
import { untagged } from './mint/tag.js';

export interface ApiKey {
  api_key: string;
  /** The name as the service has it, with the tag trident adds to the keys it makes (mint/tag.ts). */
  name: string;
  /** The name as the user gave it: `name` without trident's tag. */
  given_name: string;
  scopes: string[];
  /** The service's creation time as it came; null when it sent none (the public service does not). */
  created_ts: string | number | null;
  subaccount: number | null;
  fcm_subtrader_id?: string;
}

export interface NewKey {
  name: string;
  scopes?: string[];
  subaccount?: number;
  fcmSubtraderId?: string;
}

export interface CreatedKey {
  apiKey: ApiKey;
  warning?: string;
}

export interface GeneratedKey extends CreatedKey {
  /** Secret: shown once by the service. */
  privateKeyPem: string;
}

/**
 * "already deleted": a retried DELETE found the key gone after an attempt that may have deleted it. A 404
 * after attempts that certainly did nothing (429, a connection never made) is "not found".
 */
export type DeleteOutcome = 'deleted' | 'already deleted' | 'not found';

export const DEFAULT_SCOPES = ['read', 'write'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function unexpected(what: string, status: number): TridentError {
  return new TridentError(ExitCode.unavailable, `the keys service answered ${status} with ${what}`, {
    status,
    hint: 'run again with --debug to see the answer',
  });
}

/** One ApiKey from any shape the service uses; `requested` fills what a flat answer leaves out. */
export function toApiKey(raw: Json, requested?: NewKey): ApiKey {
  const id = nonEmpty(raw.api_key) ?? nonEmpty(raw.api_key_id);
  if (id === undefined) throw new TypeError('no key id');
  const scopes = Array.isArray(raw.scopes) ? raw.scopes.filter((s): s is string => typeof s === 'string') : undefined;
  const created = raw.created_ts;
  const name = typeof raw.name === 'string' ? raw.name : (requested?.name ?? '');
  const key: ApiKey = {
    api_key: id,
    name,
    given_name: untagged(name),
    scopes: scopes ?? requested?.scopes ?? (requested ? DEFAULT_SCOPES : []),
    created_ts: typeof created === 'string' || typeof created === 'number' ? created : null,
    subaccount: typeof raw.subaccount === 'number' ? raw.subaccount : (requested?.subaccount ?? null),
  };
  const fcm = nonEmpty(raw.fcm_subtrader_id) ?? requested?.fcmSubtraderId;
  if (fcm !== undefined) key.fcm_subtrader_id = fcm;
  return key;
}

/** The ApiKey of a create/generate answer: nested `{api_key: {...}}` (the sandbox) or flat `{api_key_id, ...}` (the exchange). */
function createdKey(body: unknown, status: number, requested: NewKey): CreatedKey {
  if (!isObject(body)) throw unexpected('a body that is not a JSON object', status);
  const record = isObject(body.api_key) ? body.api_key : body;
  let apiKey: ApiKey;
  try {
    apiKey = toApiKey(record, requested);
  } catch {
    throw unexpected('no key id', status);
  }
  const problem = keyIdProblem(apiKey.api_key);
  if (problem !== undefined) throw unexpected(`a key id that ${problem}: ${JSON.stringify(apiKey.api_key)}`, status);
  const warning = nonEmpty(body.warning);
  return warning === undefined ? { apiKey } : { apiKey, warning };
}

function keyBody(key: NewKey): Json {
  return {
    name: key.name,
    ...(key.scopes ? { scopes: key.scopes } : {}),
    ...(key.subaccount !== undefined ? { subaccount: key.subaccount } : {}),
    ...(key.fcmSubtraderId !== undefined ? { fcm_subtrader_id: key.fcmSubtraderId } : {}),
  };
}

export class KeysClient {
  constructor(
    private readonly http: HttpClient,
    /** Includes the base path, e.g. https://host/trade-api/v2 */
    readonly baseUrl: URL,
    readonly signer: Signer,
    private readonly now: () => number = Date.now,
  ) {}

  async list(filter: { fcmSubtraderId?: string } = {}): Promise<ApiKey[]> {
    const response = await this.send('GET', 'api_keys', { query: { fcm_subtrader_id: filter.fcmSubtraderId } });
    const body = response.json();
    if (!isObject(body) || !Array.isArray(body.api_keys)) throw unexpected('no api_keys list', response.status);
    return body.api_keys.map((item) => {
      if (!isObject(item)) throw unexpected('a key that is not an object', response.status);
      try {
        return toApiKey(item);
      } catch {
        throw unexpected('a key without an id', response.status);
      }
    });
  }

  /** Uploads a public key (SubjectPublicKeyInfo PEM). */
  async create(key: NewKey & { publicKeyPem: string }): Promise<CreatedKey> {
    const response = await this.send('POST', 'api_keys', { body: { ...keyBody(key), public_key: key.publicKeyPem }, refusal: 'upload' });
    return createdKey(response.json(), response.status, key);
  }

  /** Asks the service to mint a pair; the answer carries the private key, once. */
  async generate(key: NewKey): Promise<GeneratedKey> {
    const response = await this.send('POST', 'api_keys/generate', { body: keyBody(key) });
    const body = response.json();
    const created = createdKey(body, response.status, key);
    const privateKeyPem = isObject(body) ? nonEmpty(body.private_key) : undefined;
    if (privateKeyPem === undefined) {
      throw new TridentError(ExitCode.unavailable, `the keys service minted key ${created.apiKey.api_key} but sent no private key`, {
        status: response.status,
        hint: `nobody holds its private half: delete it with trident keys delete ${created.apiKey.api_key}`,
      });
    }
    return { ...created, privateKeyPem };
  }

  /** `onRateLimited` is told of each 429 (a batch of deletes paces itself by them). */
  async delete(apiKey: string, onRateLimited?: OnRateLimited): Promise<DeleteOutcome> {
    // The last line of defence for ids from the service (undo paths): ".." would make the DELETE another path.
    const problem = keyIdProblem(apiKey);
    if (problem !== undefined) throw new TridentError(ExitCode.usage, `refusing to delete key ${JSON.stringify(apiKey)}: it ${problem}`);
    const response = await this.send('DELETE', `api_keys/${encodeURIComponent(apiKey)}`, {
      deleteIsRetrySafe: true,
      accept: [404],
      onRateLimited,
    });
    if (response.status !== 404) return 'deleted';
    return response.earlierAttemptMayHaveTakenEffect ? 'already deleted' : 'not found';
  }

  private async send(
    method: Method,
    path: string,
    options: {
      query?: Record<string, QueryValue>;
      body?: Json;
      deleteIsRetrySafe?: boolean;
      accept?: number[];
      refusal?: RefusedCall;
      onRateLimited?: OnRateLimited;
    } = {},
  ): Promise<HttpResponse> {
    const url = joinUrl(this.baseUrl, path, options.query);
    const json: Record<string, string> = options.body === undefined ? {} : { 'content-type': 'application/json' };
    try {
      return await this.http.request({
        method,
        url,
        headers: () => ({ ...signedHeaders(this.signer, method, url, this.now()), ...json }),
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        deleteIsRetrySafe: options.deleteIsRetrySafe,
        accept: options.accept,
        onRateLimited: options.onRateLimited,
      });
    } catch (error) {
      throw explainRefusal(error, this.signer, this.baseUrl, options.refusal);
    }
  }
}
