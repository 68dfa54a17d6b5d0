// `time login` in a hostile environment: a token it would later refuse (spaces, control characters) or that
// does not work never replaces a working stored one; a token issued but not storable (a full disk: a 64 KiB
// tmpfs) is revoked again and the user told — exit 8 or 2, never 1. The sandbox's record shows what was sent.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import type { RecordedRequest } from '../../src/sandbox/http/server.js';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { configWithStoredToken, filesBelow, fillDisk, onTinyTmpfs, scratchDir, tmpfsProbe } from './local-env-helpers.js';

const services = useServices(['time']);
const KEPT = 'the stored token, if any, was left as it was';

/** A config dir with a working stored token; `login()` logs in again into it. */
function loggedIn(configDir = join(scratchDir(), 'config')) {
  const stored = configWithStoredToken(services, configDir);
  const before = readFileSync(stored.tokenFile, 'utf8');
  const start = services.time.server.requests.length;
  return {
    ...stored,
    configDir,
    login: () =>
      trident(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
        configDir,
        env: envFor.timeServer(services),
        input: `${SANDBOX_TIME_USER.password}\n`,
      }),
    /** The stored token is byte for byte what it was, and still works at the service. */
    expectKept() {
      expect(readFileSync(stored.tokenFile, 'utf8')).toBe(before);
      expect(services.time.control.hasToken(stored.token)).toBe(true);
    },
    sent: (): RecordedRequest[] => services.time.server.requests.slice(start),
  };
}

const lines = (requests: RecordedRequest[]) => requests.map((request) => `${request.method} ${request.path}`);
const bearer = (request: RecordedRequest | undefined) => String(request?.headers.authorization).replace(/^Bearer /, '');

describe('time login never replaces a working token with one it would refuse', () => {
  it.each([
    ['a space', 'abc def'],
    ['a control character', 'abc\u0007def'],
    ['an escape sequence', '\u001b]52;c;aGk=\u0007'],
  ])('an issued token with %s: exit 8, nothing sent with it, the stored token kept', async (_what, token) => {
    const session = loggedIn();
    services.time.server.faults.add({
      method: 'POST',
      path: '/api/v1/auth',
      fault: { kind: 'body', status: 200, contentType: 'application/json', payload: JSON.stringify({ token, account_id: 1 }) },
    });
    const result = await session.login();
    expect(result.exitCode, result.stderr).toBe(8);
    expect(errorOf(result)).toEqual({
      message: 'the time service issued a token trident cannot use: a token is one word of visible characters, at most 4096',
      hint: KEPT,
    });
    expect(lines(session.sent())).toEqual(['POST /api/v1/auth']);
    session.expectKept();
  });

  it('an issued token the service then refuses (401 on one GET): exit 8, revoked again, the stored token kept', async () => {
    const session = loggedIn();
    services.time.server.faults.add({
      method: 'GET',
      path: '/api/v1/projects',
      fault: { kind: 'status', status: 401, body: { status: 401, message: 'Invalid API token' } },
    });
    const result = await session.login();
    expect(result.exitCode, result.stderr).toBe(8);
    const { message, hint } = errorOf(result);
    expect(message).toMatch(/^the token the time service issued does not work \(.*Invalid API token.*\); it was revoked again$/);
    expect(hint).toBe(KEPT);
    const sent = session.sent();
    expect(lines(sent)).toEqual(['POST /api/v1/auth', 'GET /api/v1/projects', 'GET /api/v1/auth/revoke']);
    const issued = bearer(sent[2]);
    expect(issued).toBe(bearer(sent[1]));
    expect(issued).not.toBe(session.token);
    expect(services.time.control.hasToken(issued)).toBe(false);
    session.expectKept();
  });
});

const tmpfs = tmpfsProbe();

describe('time login on a full disk', () => {
  it.skipIf(!tmpfs.can)(
    `exit 2 naming ENOSPC, the issued token revoked again, the stored one and the directory untouched${tmpfs.skipped}`,
    () =>
      onTinyTmpfs(async (dir) => {
        const session = loggedIn(dir);
        const freeAll = fillDisk(dir);
        const result = await session.login();
        expect(result.exitCode, result.stderr).toBe(2);
        expect(errorOf(result)).toEqual({
          message: `cannot store the token in ${session.tokenFile}: ENOSPC; it was revoked again`,
          hint: `free space or fix the directory, then log in again; ${KEPT}`,
        });
        const sent = session.sent();
        expect(lines(sent)).toEqual(['POST /api/v1/auth', 'GET /api/v1/projects', 'GET /api/v1/auth/revoke']);
        expect(services.time.control.hasToken(bearer(sent[2]))).toBe(false);
        session.expectKept();
        expect(filesBelow(dir)).toEqual(['tokens/default.json']);

        // A settings write on the same full disk: exit 2 naming the file, no settings file, no lock left behind.
        const set = await trident(['config', 'set', 'output', 'json'], { configDir: dir });
        expect(set.exitCode, set.stderr).toBe(2);
        expect(errorOf(set)).toEqual({
          message: `cannot write ${join(dir, 'settings.json')}: no space left on device`,
          hint: 'free some space on that file system, then run the command again',
        });
        expect(
          readdirSync(dir)
            .filter((name) => !name.startsWith('filler-'))
            .sort(),
        ).toEqual(['tokens']);

        // With room again, the same login goes through and replaces the token.
        freeAll();
        const again = await session.login();
        expect(again.exitCode, again.stderr).toBe(0);
        const stored = JSON.parse(readFileSync(session.tokenFile, 'utf8')) as { token: string };
        expect(stored.token).not.toBe(session.token);
        expect(services.time.control.hasToken(stored.token)).toBe(true);
      }),
  );
});
