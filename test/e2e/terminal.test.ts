// Prompts as a person meets them: on a real (pseudo-)terminal, answered by typing. Without a terminal, with
// --no-input or under CI, nothing is asked (see the keys and time e2e tests for that side).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { tempConfigDir } from '../helpers/cli.js';
import stringWidth from 'string-width';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';
import { addKey, keyExists, sandboxEnv, startSandbox } from '../helpers/keys-sandbox.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';
import { profileKey, profileWithKey } from '../helpers/keys-rotation.js';

const time = useTimeSandbox();
let keys: KeysSandbox;

beforeAll(async () => {
  keys = await startSandbox();
});
afterAll(() => keys.close());

const newKey = (name: string) => addKey(keys, name);
const exists = (id: string) => keyExists(keys, id);

describeWithTools(['script'], 'on a terminal', () => {
  it('keys delete asks first: "n" keeps the key (exit 3), "y" deletes it', async () => {
    const id = newKey('asked-about');
    const declined = inTerminal(['keys', 'delete', id], { env: sandboxEnv(keys) });
    await declined.waitFor('[y/N]');
    declined.type('n');
    expect(await declined.exitCode()).toBe(3);
    expect(declined.screen()).toContain('cancelled: nothing deleted');
    expect(exists(id)).toBe(true);

    const confirmed = inTerminal(['keys', 'delete', id], { env: sandboxEnv(keys) });
    await confirmed.waitFor('[y/N]');
    confirmed.type('y');
    expect(await confirmed.exitCode()).toBe(0);
    expect(exists(id)).toBe(false);
  });

  it('time login asks for email and password, and never shows the password', async () => {
    const configDir = tempConfigDir();
    const login = inTerminal(['time', 'login'], { configDir, env: time.env });
    await login.waitFor('Email: ');
    login.type(SANDBOX_TIME_USER.email);
    await login.waitFor('Password: ');
    login.type(SANDBOX_TIME_USER.password);
    expect(await login.exitCode()).toBe(0);
    expect(login.screen()).toContain(SANDBOX_TIME_USER.email);
    expect(login.screen()).not.toContain(SANDBOX_TIME_USER.password);
    const token = join(configDir, 'tokens', 'default.json');
    expect(JSON.parse(readFileSync(token, 'utf8'))).toMatchObject({ email: SANDBOX_TIME_USER.email });
  });

  for (const [how, args, env] of [
    ['--no-input', ['--no-input'], {}],
    ['CI set', [], { CI: 'true' }],
  ] as const) {
    it(`asks nothing with ${how}: a needed confirmation is exit 3 with the --yes hint`, async () => {
      const id = newKey(`not-asked-${how}`);
      const run = inTerminal([...args, 'keys', 'delete', id], { env: { ...sandboxEnv(keys), ...env } });
      expect(await run.exitCode()).toBe(3);
      expect(run.screen()).not.toContain('[y/N]');
      expect(run.screen()).toContain('pass --yes');
      expect(exists(id)).toBe(true);
    });
  }

  it('still asks with CI=false', async () => {
    const id = newKey('asked-ci-false');
    const run = inTerminal(['keys', 'delete', id], { env: { ...sandboxEnv(keys), CI: 'false' } });
    await run.waitFor('[y/N]');
    run.type('n');
    expect(await run.exitCode()).toBe(3);
    expect(exists(id)).toBe(true);
  });

  it('Ctrl-C at a prompt cancels with nothing done', async () => {
    const configDir = tempConfigDir();
    const login = inTerminal(['time', 'login'], { configDir, env: time.env });
    await login.waitFor('Email: ');
    login.type('\u0003');
    expect(await login.exitCode()).toBe(3);
    expect(login.screen()).toContain('trident: cancelled');
    expect(existsSync(join(configDir, 'tokens', 'default.json'))).toBe(false);
  });
});

describeWithTools(['script'], 'keys rotate on a terminal', () => {
  it('prints each step once: as it is done on stderr, then the summary alone', async () => {
    const setup = profileWithKey(keys);
    const run = inTerminal(['--profile', setup.profile, 'keys', 'rotate', '--yes'], { configDir: setup.configDir }, { columns: 120 });
    const exitCode = await run.exitCode();
    const screen = run.plain();
    expect(exitCode, screen).toBe(0);
    for (const step of ['preflight', 'mint', 'store', 'switch', 'verify', 'delete-old']) {
      const shown = screen.split('\n').filter((line) => new RegExp(`(^rotate: |│ )${step} `).test(line));
      expect(shown, `${step}:\n${screen}`).toEqual([expect.stringMatching(new RegExp(`^rotate: ${step} done `))]);
    }
    expect(screen).toMatch(/│ outcome +│ rotated +│/);
    expect(screen).toContain(profileKey(setup).keyId);
  });
});

describeWithTools(['script'], 'record views on an 80-column terminal', () => {
  it('keys rotate --dry-run wraps its plan instead of cutting it', async () => {
    const name = 'payments-exchange-production-key-rotated-by-the-nightly-ci-pipeline';
    const out = '/var/lib/ci/secrets/exchange/payments/production/keys/the-new-exchange-private-key.pem';
    const run = inTerminal(['keys', 'rotate', '--dry-run', '--name', name, '--out', out], { env: sandboxEnv(keys) }, { columns: 80 });
    const exitCode = await run.exitCode();
    const screen = run.plain();
    expect(exitCode, screen).toBe(0);
    const lines = screen.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    expect(screen).not.toContain('…');
    // The name and the file are whole on the screen, in order, whatever the line breaks.
    const cells = lines
      .map((line) => line.split('│').slice(1, -1).join('').trim())
      .join('')
      .replace(/\s+/g, '');
    expect(cells).toContain(name);
    expect(cells).toContain(out);
  });
});
