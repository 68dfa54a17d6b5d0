// Validation of create/generate bodies and of the fcm_subtrader_id filter: a name is required, scopes are
// read, write and child scopes (write needs read), subaccount is 0-63 and not given with fcm_subtrader_id,
// fcm_subtrader_id is `<user_id>_<suffix>`, and an uploaded public key is RSA of 2048 bits or more, or Ed25519.
import type { KeyObject } from 'node:crypto';
import { parsePublicKeyPem } from './crypto.js';

export interface KeyRequest {
  name: string;
  publicKey?: KeyObject;
  scopes: string[];
  subaccount: number | null;
  fcmSubtraderId?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; details: string };

const SCOPES = ['read', 'write'];
/** Child scopes `<parent>::<child>` (write::transfer is the documented one); each may be held without its parent. */
const CHILD_SCOPE = /^(read|write)::[a-z][a-z0-9_]*$/;
// `<user_id>_<suffix>`: the user id has no underscore, the suffix is non-empty.
const FCM_SUBTRADER_ID = /^[A-Za-z0-9-]+_[A-Za-z0-9_-]+$/;

export function isFcmSubtraderId(value: string): boolean {
  return FCM_SUBTRADER_ID.test(value);
}

function fail<T>(message: string, details = 'INVALID_PARAMETERS'): Parsed<T> {
  return { ok: false, message, details };
}

/** Parses a create (`withPublicKey`) or generate body. */
export function parseKeyRequest(body: Buffer, withPublicKey: boolean): Parsed<KeyRequest> {
  let input: unknown;
  try {
    input = JSON.parse(body.toString('utf8'));
  } catch {
    return fail('request body must be a JSON object', 'INVALID_JSON');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return fail('request body must be a JSON object', 'INVALID_JSON');
  const fields = input as Record<string, unknown>;

  const name = fields['name'];
  if (typeof name !== 'string' || name.trim() === '') return fail('name is required and must be a non-empty string');

  let publicKey: KeyObject | undefined;
  if (withPublicKey) {
    const pem = fields['public_key'];
    if (typeof pem !== 'string' || pem.trim() === '') return fail('public_key is required and must be a PEM string');
    const parsed = parsePublicKeyPem(pem);
    if (!parsed.ok) return fail(parsed.reason, 'INVALID_PUBLIC_KEY');
    publicKey = parsed.key;
  }

  const scopes = parseScopes(fields['scopes']);
  if (!scopes.ok) return scopes;

  const rawSubaccount = fields['subaccount'];
  let subaccount: number | null = null;
  if (rawSubaccount !== undefined && rawSubaccount !== null) {
    if (typeof rawSubaccount !== 'number' || !Number.isInteger(rawSubaccount) || rawSubaccount < 0 || rawSubaccount > 63) {
      return fail('subaccount must be an integer from 0 to 63');
    }
    subaccount = rawSubaccount;
  }

  const rawFcm = fields['fcm_subtrader_id'];
  let fcmSubtraderId: string | undefined;
  if (rawFcm !== undefined && rawFcm !== null) {
    if (typeof rawFcm !== 'string' || !isFcmSubtraderId(rawFcm)) return fail('fcm_subtrader_id must be shaped <user_id>_<suffix>');
    fcmSubtraderId = rawFcm;
  }
  if (subaccount !== null && fcmSubtraderId !== undefined) return fail('subaccount and fcm_subtrader_id are mutually exclusive');

  const value: KeyRequest = { name, scopes: scopes.value, subaccount };
  if (publicKey) value.publicKey = publicKey;
  if (fcmSubtraderId !== undefined) value.fcmSubtraderId = fcmSubtraderId;
  return { ok: true, value };
}

function parseScopes(raw: unknown): Parsed<string[]> {
  if (raw === undefined || raw === null) return { ok: true, value: ['read', 'write'] };
  if (!Array.isArray(raw) || raw.length === 0) return fail('scopes must be a non-empty array of read, write or <parent>::<child>');
  for (const scope of raw) {
    if (typeof scope !== 'string' || !(SCOPES.includes(scope) || CHILD_SCOPE.test(scope))) {
      return fail(`scopes may only contain read, write and child scopes <parent>::<child> (got ${JSON.stringify(scope)})`);
    }
  }
  const scopes = [
    ...SCOPES.filter((scope) => raw.includes(scope)),
    ...new Set((raw as string[]).filter((scope) => CHILD_SCOPE.test(scope))),
  ];
  if (scopes.includes('write') && !scopes.includes('read')) return fail('scopes: write requires read');
  return { ok: true, value: scopes };
}
