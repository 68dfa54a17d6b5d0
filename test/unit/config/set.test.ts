// config set with several <key> <value> pairs: parsed as pairs, written in one update, and refused as a whole
// (exit 2, nothing written) when the pairs do not pair up or when the ledger refuses the key they name together.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as configSet from '../../../src/config/commands/set.js';
import { noteDeleted } from '../../../src/keys/overlap/records.js';
import { testContext } from '../../helpers/context.js';
import { parseCommand } from '../../helpers/parse-command.js';

const KEPT = 'a1b2c3d4-0000-4000-8000-000000000001';
const DELETED = 'a1b2c3d4-0000-4000-8000-000000000002';

/** A profile "ci" on the key KEPT and its file, in a config dir of its own. */
async function profileOnKey() {
  const test = testContext({ globals: { profile: 'ci' } });
  await configSet.run(test.ctx, {}, 'keys.keyId', KEPT, ['keys.privateKeyFile', join(test.configDir, 'kept.pem')]);
  const settings = () => readFileSync(join(test.configDir, 'settings.json'), 'utf8');
  return { ...test, settings };
}

describe('config set, parsed', () => {
  it('takes the first pair as <key> <value> and the pairs after it as more words', async () => {
    const { args } = await parseCommand(configSet, ['keys.keyId', 'K', 'keys.privateKeyFile', 'k.pem']);
    expect(args).toEqual(['keys.keyId', 'K', ['keys.privateKeyFile', 'k.pem']]);
    expect((await parseCommand(configSet, ['output', 'json'])).args).toEqual(['output', 'json', []]);
  });

  it('pairs the words, a file setting made absolute; a word without its value or a setting given twice is exit 2', () => {
    expect([...configSet.settingPairs(['keys.keyId', 'K', 'keys.privateKeyFile', 'k.pem'])]).toEqual([
      ['keys.keyId', 'K'],
      ['keys.privateKeyFile', join(process.cwd(), 'k.pem')],
    ]);
    expect(() => configSet.settingPairs(['keys.keyId', 'K', 'keys.privateKeyFile'])).toThrow(
      expect.objectContaining({ exitCode: 2, message: '"keys.privateKeyFile" has no value: config set takes <key> <value> pairs' }),
    );
    expect(() => configSet.settingPairs(['output', 'json', 'output', 'csv'])).toThrow(
      expect.objectContaining({ exitCode: 2, message: 'output given twice: config set takes each setting once' }),
    );
  });
});

describe('config set of a key and its file together', () => {
  it('writes both in one update, each said on stderr', async () => {
    const { settings, configDir, stderr } = await profileOnKey();
    expect(JSON.parse(settings()).profiles.ci).toEqual({ 'keys.keyId': KEPT, 'keys.privateKeyFile': join(configDir, 'kept.pem') });
    expect(stderr()).toBe(
      'created profile "ci" (it did not exist; see trident config profiles)\n' +
        'set keys.keyId in profile "ci"\n' +
        'set keys.privateKeyFile in profile "ci"\n',
    );
  });

  it('is refused as a whole (exit 2, neither written) when the key it names is being deleted', async () => {
    const { ctx, configDir, settings } = await profileOnKey();
    await noteDeleted(configDir, DELETED, new Date());
    const before = settings();
    await expect(
      configSet.run(ctx, {}, 'keys.keyId', DELETED, ['keys.privateKeyFile', join(configDir, 'deleted.pem')]),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(new RegExp(`^key ${DELETED} was deleted by trident keys prune`)),
    });
    expect(settings()).toBe(before);
  });

  it('an odd number of words writes nothing', async () => {
    const { ctx, settings } = await profileOnKey();
    const before = settings();
    await expect(configSet.run(ctx, {}, 'output', 'json', ['keys.keyId'])).rejects.toMatchObject({ exitCode: 2 });
    expect(settings()).toBe(before);
  });
});
