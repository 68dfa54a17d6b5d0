// keys setup at a terminal: what no flag gives is asked for, one question at a time, and the answers go where
// the flags would have; the service is asked once, signed by the key being set up.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { MockAgent } from 'undici';
import { expect, it } from 'vitest';
import { run } from '../../../src/keys/commands/setup.js';
import { testContext } from '../../helpers/context.js';

const SERVICE = 'https://keys.test';
const KEY_ID = '0f9d6a1e-3c55-4f3c-9a57-4a1f2f7e0b11';

it('asks for the URL, the key id and the file in turn, then stores the key and writes the profile', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trident-setup-'));
  const pemFile = join(dir, 'from-website.pem');
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(pemFile, pem, { mode: 0o600 });
  const agent = new MockAgent();
  agent.disableNetConnect();
  const signedBy: string[] = [];
  agent
    .get(SERVICE)
    .intercept({ path: '/trade-api/v2/api_keys', method: 'GET' })
    .reply((request) => {
      const headers = Object.entries(request.headers as Record<string, string>);
      signedBy.push(String(headers.find(([name]) => name.toLowerCase() === 'kalshi-access-key')?.[1]));
      return {
        statusCode: 200,
        data: JSON.stringify({ api_keys: [{ api_key: KEY_ID, name: 'desk', scopes: ['read'], created_ts: '2026-01-01T00:00:00Z' }] }),
        responseOptions: { headers: { 'content-type': 'application/json' } },
      };
    });
  const stdin = new PassThrough();
  const answers: Record<string, string> = {
    'Keys service (production, demo or a URL): ': `${SERVICE}/trade-api/v2`,
    'Key id: ': KEY_ID,
    'Private key file: ': pemFile,
  };
  const asked: string[] = [];
  const { ctx, stdout, stderr, configDir } = testContext({
    globals: { output: 'json' },
    env: { TRIDENT_CREDENTIAL_STORE: 'file' },
    stdin,
    stdinTTY: true,
    stderrTTY: true,
    dispatcher: agent,
    onWrite: (text, stream) => {
      const answer = stream === 'stderr' ? answers[text] : undefined;
      if (answer === undefined) return;
      asked.push(text);
      setImmediate(() => stdin.write(`${answer}\n`));
    },
  });
  await run(ctx, {});
  expect(asked).toEqual(Object.keys(answers));
  expect(signedBy).toEqual([KEY_ID]);
  const stored = join(configDir, 'keys', `${KEY_ID}.pem`);
  expect(JSON.parse(stdout())).toMatchObject({ api_key: KEY_ID, name: 'desk', private_key_file: stored });
  expect(readFileSync(stored, 'utf8')).toBe(pem);
  expect(ctx.settings.store.values('default')).toEqual({
    'keys.url': `${SERVICE}/trade-api/v2`,
    'keys.keyId': KEY_ID,
    'keys.privateKeyFile': stored,
  });
  expect(stderr()).toContain(`warning: key ${KEY_ID} is read-only`);
});
