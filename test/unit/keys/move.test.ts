// keys move-to-file/-keyring decide on the profile as it is under the settings lock, not as the command read it
// at its start: a rotation in another shell may have switched the profile in between.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SettingsStore } from '../../../src/core/files/settings.js';
import { moveProfileKey } from '../../../src/keys/ledger/move.js';
import { testContext } from '../../helpers/context.js';

const OLD_ID = '0f9d6a1e-3c55-4f3c-9a57-4a1f2f7e0b11';
const NEW_ID = '7c2e1b44-1d2a-4e8f-9b6c-55aa0e3d9f20';

async function profileWithFileKey() {
  const configDir = join(mkdtempSync(join(tmpdir(), 'trident-unit-')), 'config');
  mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
  const file = join(configDir, 'keys', `${OLD_ID}.pem`);
  const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(file, pem, { mode: 0o600 });
  await new SettingsStore(configDir).update('default', { 'keys.keyId': OLD_ID, 'keys.privateKeyFile': file });
  // The command starts: it reads the settings, and keeps what it read for the rest of the run.
  const { ctx } = testContext({ configDir, env: { TRIDENT_CREDENTIAL_STORE: 'file' } });
  return { ctx, configDir, file };
}

const toFile = (ctx: ReturnType<typeof testContext>['ctx']) =>
  moveProfileKey(
    ctx,
    (place) => !place.startsWith('keyring:'),
    (keyId) => join(ctx.configDir, 'keys', `${keyId}.pem`),
  );

it('a key in a file already: nothing to move, said of the profile as it is', async () => {
  const { ctx, file } = await profileWithFileKey();
  expect(await toFile(ctx)).toEqual({ already: { profile: 'default', api_key: OLD_ID, place: file } });
});

it('the profile switched to a keyring key after the command read it: refused (exit 2), not "there already"', async () => {
  const { ctx, configDir } = await profileWithFileKey();
  // The command has read the settings (they are kept for the rest of the run) ...
  expect(ctx.settings.store.values('default')['keys.keyId']).toBe(OLD_ID);
  // ... when a rotation in another shell switches the profile to its new key, stored in the keyring.
  await new SettingsStore(configDir).update('default', {
    'keys.keyId': NEW_ID,
    'keys.privateKeyFile': `keyring:trident/somewhere/keys/${NEW_ID}`,
  });
  await expect(toFile(ctx)).rejects.toMatchObject({
    exitCode: 2,
    message: 'the key of profile "default" changed while it was being moved (by another trident?): nothing was moved',
  });
});
