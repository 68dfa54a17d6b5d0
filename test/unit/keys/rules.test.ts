import { describe, expect, it } from 'vitest';
import { thrownBy } from './fixtures.js';
import { checkFcmSubtraderId, parseNewKey, parseScopes, parseSubaccount, requireName } from '../../../src/keys/rules.js';

function ruleMessage(fn: () => unknown): string {
  const error = thrownBy(fn);
  expect(error.exitCode).toBe(2);
  return error.message;
}

describe('key input rules', () => {
  it('requires a name', () => {
    expect(requireName('ci')).toBe('ci');
    for (const name of [undefined, '', '   ']) expect(ruleMessage(() => requireName(name))).toContain('--name is required');
  });

  it('defaults scopes to read and write, keeps them to read and write, and write needs read', () => {
    expect(parseScopes(undefined)).toEqual(['read', 'write']);
    expect(parseScopes('read')).toEqual(['read']);
    expect(parseScopes('write, READ,read')).toEqual(['read', 'write']);
    expect(ruleMessage(() => parseScopes('write'))).toContain('write scope requires read');
    expect(ruleMessage(() => parseScopes('read,admin'))).toContain('scopes may only be read, write');
    expect(ruleMessage(() => parseScopes(''))).toContain('scopes may only be');
    expect(ruleMessage(() => parseScopes(','))).toContain('scopes may only be');
  });

  it('takes a subaccount from 0 to 63, whole numbers only', () => {
    expect(parseSubaccount(undefined)).toBeUndefined();
    expect(parseSubaccount('0')).toBe(0);
    expect(parseSubaccount('63')).toBe(63);
    for (const bad of ['64', '-1', '1.5', 'x', '', '1e1', '007'])
      expect(ruleMessage(() => parseSubaccount(bad))).toContain('integer from 0 to 63');
  });

  it('wants an FCM subtrader id shaped <user_id>_<suffix>', () => {
    expect(checkFcmSubtraderId('9f3a-11_desk7')).toBe('9f3a-11_desk7');
    expect(checkFcmSubtraderId('u_a_b')).toBe('u_a_b');
    for (const bad of ['nounderscore', '_suffix', 'user_', 'us er_x'])
      expect(ruleMessage(() => checkFcmSubtraderId(bad))).toContain('<user_id>_<suffix>');
  });

  it('refuses a subaccount together with an FCM subtrader', () => {
    expect(ruleMessage(() => parseNewKey({ name: 'k', subaccount: '1', fcmSubtraderId: 'u_1' }))).toContain(
      '--subaccount and --fcm-subtrader-id cannot be used together',
    );
  });

  it('builds the new key from valid options', () => {
    expect(parseNewKey({ name: 'k' })).toEqual({ name: 'k', scopes: ['read', 'write'] });
    expect(parseNewKey({ name: 'k', scopes: 'read', subaccount: '5' })).toEqual({ name: 'k', scopes: ['read'], subaccount: 5 });
    expect(parseNewKey({ name: 'k', fcmSubtraderId: 'u_1' })).toEqual({ name: 'k', scopes: ['read', 'write'], fcmSubtraderId: 'u_1' });
  });
});
