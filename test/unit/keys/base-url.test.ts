// `production` and `demo` in --url, TRIDENT_KEYS_URL and keys.url: the exchange's two documented environments.
import { describe, expect, it } from 'vitest';
import { SETTINGS, validateValue } from '../../../src/core/files/settings.js';
import { KEYS_URL_ALIASES, resolveKeysUrl } from '../../../src/keys/base-url.js';
import { keysBaseUrl } from '../../../src/keys/connection.js';
import { thrownBy } from './fixtures.js';

describe('keys URL aliases', () => {
  it('stand for the recommended base URLs of the documented environments', () => {
    expect(resolveKeysUrl('production')).toEqual({ url: new URL('https://external-api.kalshi.com/trade-api/v2'), alias: 'production' });
    expect(resolveKeysUrl('demo')).toEqual({ url: new URL('https://external-api.demo.kalshi.co/trade-api/v2'), alias: 'demo' });
    expect(resolveKeysUrl(' Demo ').url.href).toBe('https://external-api.demo.kalshi.co/trade-api/v2');
    expect(keysBaseUrl('production').href).toBe('https://external-api.kalshi.com/trade-api/v2');
  });

  it('leave URLs as before: a bare origin gets /trade-api/v2, a path is kept, no alias is reported', () => {
    expect(resolveKeysUrl('https://demo-api.kalshi.co')).toEqual({ url: new URL('https://demo-api.kalshi.co/trade-api/v2') });
    expect(resolveKeysUrl('https://exchange.test/x/trade-api/v2/').url.pathname).toBe('/x/trade-api/v2');
  });

  it('refuse a value that is neither a URL nor an alias, naming both forms', () => {
    const error = thrownBy(() => resolveKeysUrl('staging', 'TRIDENT_KEYS_URL'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('invalid TRIDENT_KEYS_URL "staging": not a URL');
    expect(error.hint).toContain('production or demo');
  });

  it('are the names keys.url accepts when set, and no others', () => {
    expect(SETTINGS['keys.url'].aliases).toEqual(Object.keys(KEYS_URL_ALIASES));
    for (const value of ['production', 'demo', 'DEMO', 'https://h.test']) expect(() => validateValue('keys.url', value)).not.toThrow();
    const staging = thrownBy(() => validateValue('keys.url', 'staging'));
    expect([staging.message, staging.hint]).toEqual(['invalid URL "staging" for keys.url', 'give a URL, or one of production, demo']);
    const catalog = thrownBy(() => validateValue('catalog.url', 'demo'));
    expect([catalog.message, catalog.hint]).toEqual(['invalid URL "demo" for catalog.url', undefined]);
  });
});
