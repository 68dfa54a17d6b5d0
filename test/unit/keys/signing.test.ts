import { constants, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject, type VerifyKeyObjectInput } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KEY_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  signMessage,
  signedHeaders,
  signingMessage,
  type Signer,
} from '../../../src/keys/signing.js';

const TS = 1703123456789;
const URL_WITH_QUERY = new URL('https://exchange.test/trade-api/v2/api_keys?fcm_subtrader_id=u1_a');

let rsa: { privateKey: KeyObject; publicKey: KeyObject };
let signer: Signer;

const pss = (publicKey: KeyObject, saltLength: number = constants.RSA_PSS_SALTLEN_DIGEST): VerifyKeyObjectInput => ({
  key: publicKey,
  padding: constants.RSA_PKCS1_PSS_PADDING,
  saltLength,
});

function verifies(message: string, signatureBase64: string, key: VerifyKeyObjectInput = pss(rsa.publicKey)): boolean {
  return verify('sha256', Buffer.from(message), key, Buffer.from(signatureBase64, 'base64'));
}

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  signer = { keyId: 'key-1', privateKey: rsa.privateKey, source: 'test key' };
});

describe('the signed message', () => {
  it('is timestamp + METHOD + full path, without the query string or the host', () => {
    expect(signingMessage(TS, 'get', URL_WITH_QUERY)).toBe('1703123456789GET/trade-api/v2/api_keys');
    expect(signingMessage(TS, 'DELETE', new URL('https://h.test/trade-api/v2/api_keys/abc'))).toBe(
      '1703123456789DELETE/trade-api/v2/api_keys/abc',
    );
  });
});

describe('signedHeaders', () => {
  it('sends the key id, a millisecond timestamp and a base64 PSS signature that crypto.verify accepts', () => {
    const headers = signedHeaders(signer, 'GET', URL_WITH_QUERY, TS);
    expect(headers[KEY_HEADER]).toBe('key-1');
    expect(headers[TIMESTAMP_HEADER]).toBe('1703123456789');
    const signature = headers[SIGNATURE_HEADER]!;
    expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    expect(verifies('1703123456789GET/trade-api/v2/api_keys', signature)).toBe(true);
    // salt length = digest length (32 bytes), stated explicitly
    expect(verifies('1703123456789GET/trade-api/v2/api_keys', signature, pss(rsa.publicKey, 32))).toBe(true);
  });

  it('fails verification for each classic mistake', () => {
    const signature = signedHeaders(signer, 'GET', URL_WITH_QUERY, TS)[SIGNATURE_HEADER]!;
    // the query string signed
    expect(verifies('1703123456789GET/trade-api/v2/api_keys?fcm_subtrader_id=u1_a', signature)).toBe(false);
    // the base path left out
    expect(verifies('1703123456789GET/api_keys', signature)).toBe(false);
    // seconds instead of milliseconds
    expect(verifies('1703123456GET/trade-api/v2/api_keys', signature)).toBe(false);
    // the doubled base path of a URL that already ended in /trade-api/v2
    expect(verifies('1703123456789GET/trade-api/v2/trade-api/v2/api_keys', signature)).toBe(false);
    // PKCS#1 v1.5 padding instead of PSS
    expect(
      verifies('1703123456789GET/trade-api/v2/api_keys', signature, { key: rsa.publicKey, padding: constants.RSA_PKCS1_PADDING }),
    ).toBe(false);
    // a maximal salt instead of the digest length
    expect(verifies('1703123456789GET/trade-api/v2/api_keys', signature, pss(rsa.publicKey, 256 - 32 - 2))).toBe(false);
  });

  it('does not verify a PKCS#1 v1.5 signature as if it were ours', () => {
    const v15 = sign('sha256', Buffer.from('1703123456789GET/trade-api/v2/api_keys'), {
      key: rsa.privateKey,
      padding: constants.RSA_PKCS1_PADDING,
    }).toString('base64');
    expect(verifies('1703123456789GET/trade-api/v2/api_keys', v15)).toBe(false);
  });

  it('signs with a fresh random salt each time (PSS), every signature valid', () => {
    const a = signMessage(rsa.privateKey, 'm');
    const b = signMessage(rsa.privateKey, 'm');
    expect(a).not.toBe(b);
    expect(verifies('m', a) && verifies('m', b)).toBe(true);
  });

  it('signs the same message with an Ed25519 key', () => {
    const ed = generateKeyPairSync('ed25519');
    const headers = signedHeaders(
      { keyId: 'ed', privateKey: ed.privateKey, source: 'test' },
      'POST',
      new URL('https://h.test/trade-api/v2/api_keys/generate'),
      TS,
    );
    const message = Buffer.from('1703123456789POST/trade-api/v2/api_keys/generate');
    expect(verify(null, message, createPublicKey(ed.privateKey), Buffer.from(headers[SIGNATURE_HEADER]!, 'base64'))).toBe(true);
    expect(
      verify(
        null,
        Buffer.from('1703123456POST/trade-api/v2/api_keys/generate'),
        ed.publicKey,
        Buffer.from(headers[SIGNATURE_HEADER]!, 'base64'),
      ),
    ).toBe(false);
  });
});
