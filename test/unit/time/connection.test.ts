import { mkdirSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connect, guardUserAgent, resolveToken, timeBaseUrl, timeUserAgent } from '../../../src/time/connection.js';
import { loadToken, readTokenFile } from '../../../src/time/token-store.js';
import { saveToken, tokenPath } from '../../../src/wire/time/token-file.js';
import { fakeContext, tridentError } from './fixtures.js';

const URL_ENV = { TRIDENT_TIME_URL: 'https://time.test/api/v1' };
const BASE = new URL(URL_ENV.TRIDENT_TIME_URL);

async function store(configDir: string, token: string, userAgent = 'trident-cli', profile = 'default', issuer?: string) {
  await saveToken(tokenPath(configDir, profile), {
    token,
    userAgent,
    accountId: '1',
    email: 'demo@example.com',
    createdAt: '2026-01-01T00:00:00.000Z',
    ...(issuer !== undefined ? { issuer } : {}),
  });
}

describe('token precedence: TRIDENT_TIME_TOKEN > --token-file > stored', () => {
  it('uses the stored token when nothing else is given', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'stored-token');
    expect(await resolveToken(ctx, BASE)).toEqual({
      token: 'stored-token',
      source: 'stored',
      userAgent: 'trident-cli',
      email: 'demo@example.com',
    });
  });

  it('a --token-file wins over the stored token; the environment wins over both', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'stored-token');
    const file = join(configDir, 'plain-token');
    writeFileSync(file, 'file-token\n');
    expect(await resolveToken(ctx, BASE, file)).toEqual({ token: 'file-token', source: 'file' });
    const withEnv = fakeContext({ ...URL_ENV, TRIDENT_TIME_TOKEN: 'env-token', TRIDENT_CONFIG_DIR: configDir });
    expect(await resolveToken(withEnv.ctx, BASE, file)).toEqual({ token: 'env-token', source: 'env' });
  });

  it('reads a token file written by login, with its User-Agent', async () => {
    const { configDir } = fakeContext();
    await store(configDir, 'json-token', 'my-agent');
    expect(readTokenFile(tokenPath(configDir, 'default'))).toEqual({ token: 'json-token', userAgent: 'my-agent' });
  });

  it('keeps profiles apart', async () => {
    const { configDir } = fakeContext();
    await store(configDir, 'work-token', 'trident-cli', 'work');
    expect(await resolveToken(fakeContext({ TRIDENT_CONFIG_DIR: configDir }).ctx, BASE)).toBeUndefined();
    expect((await resolveToken(fakeContext({ TRIDENT_CONFIG_DIR: configDir }, { profile: 'work' }).ctx, BASE))?.token).toBe('work-token');
  });

  it('no token at all exits 4 with the login hint', async () => {
    const { ctx } = fakeContext(URL_ENV);
    await expect(connect(ctx, {})).rejects.toMatchObject({ exitCode: 4, hint: expect.stringContaining('trident time login') });
  });

  it('a token file that is not there is a missing credential (exit 4); an empty one is bad input (exit 2)', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    expect((await tridentError(() => resolveToken(ctx, BASE, join(configDir, 'missing')))).exitCode).toBe(4);
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'empty'), '\n');
    expect((await tridentError(() => resolveToken(ctx, BASE, join(configDir, 'empty')))).exitCode).toBe(2);
  });
});

describe('a token goes only to the tracker that issued it', () => {
  it('a stored token is sent to its issuer, with or without a trailing slash', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'bound', 'trident-cli', 'default', 'https://time.test/api/v1');
    expect((await resolveToken(ctx, BASE))?.token).toBe('bound');
    expect((await resolveToken(ctx, new URL('https://time.test/api/v1/')))?.token).toBe('bound');
  });

  it('refuses it for another tracker (exit 4, before anything is sent), and says where to log in', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'bound', 'trident-cli', 'default', 'https://sandbox.test:8443/api/v1');
    const error = await tridentError(() => resolveToken(ctx, BASE));
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe(
      `the time token in ${tokenPath(configDir, 'default')} was issued by https://sandbox.test:8443/api/v1, not https://time.test/api/v1: it is sent only to the tracker that issued it`,
    );
    expect(error.hint).toBe('log in to this tracker: trident time login');
    await expect(connect(ctx, {})).rejects.toMatchObject({ exitCode: 4 });
  });

  it('a --token-file written by login is bound the same way; a bare token has no issuer', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'bound', 'trident-cli', 'other', 'https://elsewhere.test/api/v1');
    expect((await tridentError(() => resolveToken(ctx, BASE, tokenPath(configDir, 'other')))).exitCode).toBe(4);
    const bare = join(configDir, 'bare');
    writeFileSync(bare, 'bare-token\n');
    expect((await resolveToken(ctx, BASE, bare))?.token).toBe('bare-token');
  });

  it('a token file of an earlier release, without an issuer, is still used', async () => {
    const { ctx, configDir } = fakeContext(URL_ENV);
    await store(configDir, 'earlier');
    expect((await resolveToken(ctx, BASE))?.token).toBe('earlier');
  });
});

describe('stored token file', () => {
  it('is written 0600 in a 0700 directory and replaced on the next login', async () => {
    const { ctx, configDir } = fakeContext();
    await store(configDir, 'first');
    await store(configDir, 'second');
    const path = tokenPath(configDir, 'default');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(configDir, 'tokens')).mode & 0o777).toBe(0o700);
    expect(await loadToken(ctx, BASE)).toMatchObject({ token: 'second', userAgent: 'trident-cli', email: 'demo@example.com' });
  });

  it('warns when others can read it', async () => {
    const { ctx, configDir, stderr } = fakeContext();
    await store(configDir, 'tok');
    const path = tokenPath(configDir, 'default');
    chmodSync(path, 0o644);
    await loadToken(ctx, BASE);
    expect(stderr()).toContain('chmod 600');
  });
});

describe('URL', () => {
  it('refuses http:// even on loopback (exit 2)', async () => {
    const { ctx } = fakeContext({ TRIDENT_TIME_URL: 'http://127.0.0.1:1/api/v1' });
    const error = await tridentError(() => timeBaseUrl(ctx));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('clear text');
  });

  it('the --url flag wins over TRIDENT_TIME_URL; a missing URL exits 2', async () => {
    const { ctx } = fakeContext(URL_ENV);
    expect(timeBaseUrl(ctx, 'https://other.test/api/v1').host).toBe('other.test');
    expect((await tridentError(() => timeBaseUrl(fakeContext().ctx))).exitCode).toBe(2);
  });
});

describe('User-Agent guard', () => {
  it('the User-Agent is time.userAgent, default trident-cli, with no version in it', async () => {
    const { ctx, configDir } = fakeContext();
    expect(timeUserAgent(ctx)).toBe('trident-cli');
    await ctx.settings.store.update('default', { 'time.userAgent': 'acme-sync' });
    expect(timeUserAgent(fakeContext({ TRIDENT_CONFIG_DIR: configDir }).ctx)).toBe('acme-sync');
  });

  it('refuses to send a token created with another User-Agent (exit 2), unless --yes, which warns', async () => {
    const token = { token: 't', source: 'stored' as const, userAgent: 'old-agent' };
    const refused = await tridentError(() => guardUserAgent(fakeContext().ctx, token, 'trident-cli'));
    expect(refused.exitCode).toBe(2);
    expect(refused.message).toContain('"old-agent"');
    expect(refused.hint).toContain('time.userAgent');
    const yes = fakeContext({}, { yes: true });
    guardUserAgent(yes.ctx, token, 'trident-cli');
    expect(yes.stderr()).toContain('warning: the token was created with User-Agent "old-agent"');
  });

  it('lets a token with the same or an unknown User-Agent through', async () => {
    const { ctx } = fakeContext();
    guardUserAgent(ctx, { token: 't', source: 'stored', userAgent: 'trident-cli' }, 'trident-cli');
    guardUserAgent(ctx, { token: 't', source: 'env' }, 'trident-cli');
  });
});
