// Where a key's private half is held: every source privateHalfHolders knows, a file counted once, and a
// profile or record whose file is gone holding nothing.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { privateHalfHolders } from '../../../src/keys/audit/holders.js';
import { parseFailOn } from '../../../src/keys/audit/rows.js';
import { testContext } from '../../helpers/context.js';

const PEM = '-----BEGIN PRIVATE KEY-----\nnot read by the audit\n-----END PRIVATE KEY-----\n';

function privateFile(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(path, PEM, { mode: 0o600 });
  return path;
}

/** A file of the config dir (settings, record, journal), private as trident writes it, in its private directory. */
function configFile(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(path, JSON.stringify(value), { mode: 0o600 });
}

it('finds profiles, the environment, trident key files, kept keys and rotations; a missing file holds nothing', () => {
  const configDir = join(mkdtempSync(join(tmpdir(), 'trident-holders-')), 'config');
  const elsewhere = mkdtempSync(join(tmpdir(), 'trident-holders-'));
  const own = privateFile(join(configDir, 'keys', 'K1.pem'));
  privateFile(join(configDir, 'keys', 'K3.pem'));
  const kept = privateFile(join(elsewhere, 'kept.pem'));
  const rotatedTo = privateFile(join(elsewhere, 'next.pem'));
  copyFileSync(own, join(elsewhere, 'env.pem'));
  configFile(join(configDir, 'settings.json'), {
    profiles: {
      ci: { 'keys.keyId': 'K1', 'keys.privateKeyFile': own },
      gone: { 'keys.keyId': 'K2', 'keys.privateKeyFile': join(elsewhere, 'deleted.pem') },
    },
  });
  configFile(join(configDir, 'overlap', 'K4.json'), {
    version: 1,
    api_key: 'K4',
    url: 'https://k.test/trade-api/v2',
    rotated_to: 'K1',
    kept_until: '2030-01-01T00:00:00Z',
    private_key_file: kept,
    file_created_by_trident: false,
  });
  configFile(join(configDir, 'rotations', 'key-K5.json'), {
    version: 2,
    phase: 'verified',
    old_key: { api_key: 'K5', private_key_file: null },
    new_key: { api_key: 'K6' },
    private_key_file: rotatedTo,
  });
  const { ctx } = testContext({ configDir });
  const ids = ['K1', 'K2', 'K3', 'K4', 'K5', 'K6', 'K7', 'K8'];
  const holders = privateHalfHolders(ctx, ids, { keyId: 'K8', source: `key file ${join(elsewhere, 'env.pem')}` });
  expect(Object.fromEntries(holders)).toEqual({
    K1: [{ kind: 'profile', profile: 'ci', file: own, where: `profile "ci" (${own})` }],
    K2: [],
    K3: [{ kind: 'file', file: join(configDir, 'keys', 'K3.pem'), where: join(configDir, 'keys', 'K3.pem') }],
    K4: [{ kind: 'overlap', file: kept, where: kept }],
    K5: [],
    K6: [{ kind: 'rotation', file: rotatedTo, where: rotatedTo }],
    K7: [],
    K8: [{ kind: 'environment', file: join(elsewhere, 'env.pem'), where: `--key-id/TRIDENT_KEY_ID (${join(elsewhere, 'env.pem')})` }],
  });
  expect(privateHalfHolders(ctx, ['K8'], { keyId: 'K8', source: 'TRIDENT_PRIVATE_KEY' }).get('K8')).toEqual([
    { kind: 'environment', where: 'TRIDENT_PRIVATE_KEY' },
  ]);
});

it('--fail-on: each flag once, an unknown one or old without --max-age refused', () => {
  expect(parseFailOn(undefined, undefined)).toEqual([]);
  expect(parseFailOn('unheld, overlap,unheld', undefined)).toEqual(['unheld', 'overlap']);
  expect(parseFailOn('old', 3600)).toEqual(['old']);
  expect(() => parseFailOn('unheld,', undefined)).toThrow(
    expect.objectContaining({ exitCode: 2, message: 'unknown flag "" in --fail-on "unheld,"' }),
  );
  expect(() => parseFailOn('old', undefined)).toThrow(expect.objectContaining({ exitCode: 2 }));
});
