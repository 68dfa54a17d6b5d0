// What a user needs to reach a running sandbox: the `sandbox` profile and a time token bound to trident's
// User-Agent. The one sandbox file that writes client-side state, so the services need none of it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ExitCode, TridentError } from '../core/errors.js';
import { takePidLock } from '../core/files/pid-lock.js';
import { ensurePrivateDir } from '../core/files/private-dir.js';
import { SettingsStore, type SettingKey } from '../core/files/settings.js';
import { saveToken, tokenIssuer, tokenPath } from '../wire/time/token-file.js';
import type { RunningSandbox } from './start.js';
import { SANDBOX_TIME_USER } from './time/server.js';

export const SANDBOX_PROFILE = 'sandbox';

/**
 * The `sandbox` profile belongs to one running sandbox per config dir: a second one (another port or --dir)
 * would point it at services that end with it, under the first one's feet. Held from before the services start
 * while the config dir exists (else from before the profile is written, which makes it) until the sandbox ends;
 * a holder that died (kill -9) is taken over at once. Returns the release, or undefined when the dir is not there yet.
 */
export function claimSandboxProfile(configDir: string, makeDir: boolean): (() => void) | undefined {
  if (!existsSync(configDir)) {
    if (!makeDir) return undefined;
    ensurePrivateDir(configDir);
  }
  const lock = takePidLock(join(configDir, 'sandbox-profile'));
  if (lock.held) return lock.release;
  const pid = lock.holder.pid > 0 ? ` (pid ${lock.holder.pid})` : '';
  throw new TridentError(
    ExitCode.usage,
    `another trident sandbox${pid} runs with this config dir and owns its "${SANDBOX_PROFILE}" profile`,
    {
      hint: `stop it first, or give this one a config dir of its own: TRIDENT_CONFIG_DIR=<another dir> trident sandbox --port 0`,
    },
  );
}

/** Writes the `sandbox` profile in one settings write, and a time token bound to the profile's User-Agent. */
export async function writeSandboxProfile(
  configDir: string,
  sandbox: RunningSandbox,
  userAgent = 'trident-cli',
): Promise<Record<string, string>> {
  const token = sandbox.time.control.issueToken(userAgent);
  await saveToken(tokenPath(configDir, SANDBOX_PROFILE), {
    token,
    userAgent,
    accountId: SANDBOX_TIME_USER.accountId,
    email: SANDBOX_TIME_USER.email,
    createdAt: new Date().toISOString(),
    issuer: tokenIssuer(new URL(sandbox.time.url)),
  });
  const profile: Partial<Record<SettingKey, string>> = {
    'keys.url': sandbox.keys.url,
    'keys.keyId': sandbox.keys.bootstrap.keyId,
    'keys.privateKeyFile': sandbox.keys.bootstrap.privateKeyFile,
    caFile: sandbox.caFile,
    'time.url': sandbox.time.url,
    'catalog.url': sandbox.catalog.url,
  };
  await new SettingsStore(configDir).update(SANDBOX_PROFILE, profile);
  return profile as Record<string, string>;
}
