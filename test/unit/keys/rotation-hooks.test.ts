// The pieces of the application hooks and key ages that need no service: age parsing and display, and the
// environment a hook gets. Running a hook starts processes: test/reliability/run-hook.test.ts.
import { describe, expect, it } from 'vitest';
import { parseAge } from '../../../src/keys/key-ages.js';
import { hookEnvironment, type HookRun } from '../../../src/keys/rotation/hooks.js';

const RUN: HookRun = {
  command: 'true',
  step: 'deploy',
  keyId: 'new-id',
  keyFile: '/k/new.pem',
  oldKeyId: 'old-id',
  newKeyId: 'new-id',
  timeoutMs: 10_000,
};

describe('ages', () => {
  it('parses m, h, d and w; refuses anything else with exit 2', () => {
    expect(parseAge('90d')).toBe(90 * 86_400);
    expect(parseAge('36h')).toBe(36 * 3600);
    expect(parseAge('30m')).toBe(1800);
    expect(parseAge('2w')).toBe(14 * 86_400);
    for (const bad of ['90', 'd', '0d', '-1d', '1y', '1 d x'])
      expect(() => parseAge(bad), bad).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('hook environment', () => {
  it("withholds trident's secrets and its crash hook, keeps the user's variables, adds the deploy variables", () => {
    const env = hookEnvironment(
      {
        PATH: '/bin',
        GH_TOKEN: 'users-own',
        TRIDENT_PRIVATE_KEY: 'pem',
        TRIDENT_TIME_TOKEN: 't',
        TRIDENT_TEST_CRASH_AFTER: 'deploying',
        TRIDENT_PRIVATE_KEY_FILE: '/k/old.pem',
        TRIDENT_CONFIG_DIR: '/c',
      },
      RUN,
    );
    expect(env).toEqual({
      PATH: '/bin',
      GH_TOKEN: 'users-own',
      TRIDENT_PRIVATE_KEY_FILE: '/k/old.pem',
      TRIDENT_CONFIG_DIR: '/c',
      TRIDENT_DEPLOY_STEP: 'deploy',
      TRIDENT_DEPLOY_KEY_ID: 'new-id',
      TRIDENT_DEPLOY_KEY_FILE: '/k/new.pem',
      TRIDENT_OLD_KEY_ID: 'old-id',
      TRIDENT_NEW_KEY_ID: 'new-id',
    });
  });
});
