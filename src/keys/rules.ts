// The key service's input rules (a name, known scopes, write with read, subaccount 0-63 or an FCM subtrader id
// but not both), checked before any request is sent (exit 2, naming the rule).
import { usageError } from '../core/errors.js';
import { checkName } from '../core/names.js';
import { looksTagged } from './mint/tag.js';
import { DEFAULT_SCOPES, type NewKey } from './client.js';

export interface KeyInputOptions {
  name?: string;
  scopes?: string;
  subaccount?: string;
  fcmSubtraderId?: string;
}

export const SCOPES = ['read', 'write'] as const;
/** A child scope, granted with or without its parent: `write::transfer`. */
const CHILD_SCOPE = /^(read|write)::[a-z][a-z0-9_]*$/;
const SCOPE_RULE = `scopes may only be ${SCOPES.join(', ')} and child scopes <parent>::<child> such as write::transfer`;
// `<user_id>_<suffix>`: a user id without "_", then a non-empty suffix.
const FCM_SUBTRADER_ID = /^[A-Za-z0-9-]+_[A-Za-z0-9_-]+$/;

export function requireName(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw usageError('--name is required: every key needs a name');
  // trident proves a key its own by the tag it adds to the name: a name given with such a tag could be taken
  // for another request's key, and deleted by that request's settlement.
  if (looksTagged(value))
    throw usageError(
      `invalid --name "${value}": a name ending in "~" and 8 hex digits is the form of trident's request tags`,
      'choose a name without that ending (trident adds its own tag)',
    );
  return checkName(value, '--name');
}

/**
 * `read,write::transfer` → ['read', 'write::transfer']; default read and write. Parents come first, then child
 * scopes in the order given. A child scope needs no parent, but write needs read.
 */
export function parseScopes(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_SCOPES];
  const given = value
    .split(',')
    .map((scope) => scope.trim().toLowerCase())
    .filter(Boolean);
  const unknown = given.filter((scope) => !(SCOPES as readonly string[]).includes(scope) && !CHILD_SCOPE.test(scope));
  if (given.length === 0 || unknown.length > 0) {
    throw usageError(`invalid --scopes "${value}": ${SCOPE_RULE}`);
  }
  const scopes = [...SCOPES.filter((scope) => given.includes(scope)), ...new Set(given.filter((scope) => CHILD_SCOPE.test(scope)))];
  if (scopes.includes('write') && !scopes.includes('read')) {
    throw usageError(`invalid --scopes "${value}": the write scope requires read`, 'use --scopes read,write');
  }
  return scopes;
}

export function parseSubaccount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\s*\d{1,2}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 0 && number <= 63)) throw usageError(`invalid --subaccount "${value}": a subaccount is an integer from 0 to 63`);
  return number;
}

export function checkFcmSubtraderId(value: string | undefined): string | undefined {
  if (value !== undefined && !FCM_SUBTRADER_ID.test(value)) {
    throw usageError(`invalid --fcm-subtrader-id "${value}": it must be shaped <user_id>_<suffix>`);
  }
  return value;
}

/** name, scopes, subaccount or FCM subtrader of a new key, every rule checked. */
export function parseNewKey(opts: KeyInputOptions): NewKey {
  const name = requireName(opts.name);
  const scopes = parseScopes(opts.scopes);
  const subaccount = parseSubaccount(opts.subaccount);
  const fcmSubtraderId = checkFcmSubtraderId(opts.fcmSubtraderId);
  if (subaccount !== undefined && fcmSubtraderId !== undefined) {
    throw usageError('--subaccount and --fcm-subtrader-id cannot be used together');
  }
  return {
    name,
    scopes,
    ...(subaccount !== undefined ? { subaccount } : {}),
    ...(fcmSubtraderId !== undefined ? { fcmSubtraderId } : {}),
  };
}

/**
 * `--use` points the profile trident manages keys with at the new key. A key restricted to a subaccount
 * cannot manage API keys (the service answers 403): the profile would be locked out, so that is refused.
 */
export function checkUse(key: NewKey, use: boolean | undefined): void {
  if (use && key.subaccount !== undefined) {
    throw usageError(
      `--use would point the profile at a key restricted to subaccount ${key.subaccount}, which cannot manage API keys`,
      'make the key without --use; this profile needs a key for the whole account to manage keys',
    );
  }
}
