// What a user needs to reach a running sandbox: the `sandbox` profile and a time token bound to trident's
// User-Agent. The one sandbox file that writes client-side state, so the services need none of it.
import { SettingsStore, type SettingKey } from '../core/files/settings.js';
import { saveToken, tokenIssuer, tokenPath } from '../wire/time/token-file.js';
import type { RunningSandbox } from './start.js';
import { SANDBOX_TIME_USER } from './time/server.js';

export const SANDBOX_PROFILE = 'sandbox';

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
