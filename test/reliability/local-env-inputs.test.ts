// Endless input files: every file trident reads (private and public keys, tokens, CSVs, stdin) is read with
// a cap. /dev/zero, a FIFO that never ends and a huge sparse file end at once with exit 2 and one line, and
// nothing is sent.
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, configWithStoredToken, endlessFifo, scratchDir } from './local-env-helpers.js';

const services = useServices(['keys', 'time']);
/** Measured at ~0.2 s (0.4 s for the 64 MiB CSV cap): anything near this is reading far more than the cap. */
const AT_ONCE_MS = 5_000;

interface Case {
  name: string;
  args: (file: string) => string[];
  env: () => Record<string, string>;
  message: (file: string) => string;
  hint?: string;
}

const keysEnv = () => envFor.keys(services);
const timeEnv = () => envFor.timeServer(services);
const CASES: Case[] = [
  {
    name: '--private-key',
    args: (file) => ['keys', 'list', '--private-key', file],
    env: keysEnv,
    message: (file) => `private key file ${file} is larger than 1 MiB: not read`,
  },
  {
    name: 'TRIDENT_PRIVATE_KEY_FILE',
    args: () => ['keys', 'list'],
    env: keysEnv,
    message: (file) => `private key file ${file} is larger than 1 MiB: not read`,
  },
  {
    name: 'keys create --public-key',
    args: (file) => ['keys', 'create', '--name', 'endless', '--public-key', file],
    env: keysEnv,
    message: (file) => `--public-key ${file} is larger than 1 MiB: not read`,
  },
  {
    name: '--token-file',
    args: (file) => ['time', 'projects', '--token-file', file],
    env: timeEnv,
    message: (file) => `token file ${file} is larger than 64 KiB: not read`,
  },
  {
    name: '--from-csv (default cap, 64 MiB)',
    args: (file) => ['time', 'customer-update', '--from-csv', file],
    env: () => ({ ...timeEnv(), TRIDENT_TIME_TOKEN: 'unused-token' }),
    message: (file) => `${file} is larger than 64 MiB: not read`,
    hint: 'split the file, or raise TRIDENT_MAX_CSV_MB (MiB, default 64)',
  },
  {
    name: '--from-csv with TRIDENT_MAX_CSV_MB=1',
    args: (file) => ['time', 'customer-update', '--from-csv', file],
    env: () => ({ ...timeEnv(), TRIDENT_TIME_TOKEN: 'unused-token', TRIDENT_MAX_CSV_MB: '1' }),
    message: (file) => `${file} is larger than 1 MiB: not read`,
    hint: 'split the file, or raise TRIDENT_MAX_CSV_MB (MiB, default 64)',
  },
  {
    name: 'api --input',
    args: (file) => ['api', 'keys', '/api_keys', '--input', file],
    env: keysEnv,
    message: (file) => `--input ${file} is larger than 8 MiB: not read`,
    hint: 'a request body is not that big: check the file',
  },
];

/** The file under test goes where the case reads it from (a flag, or TRIDENT_PRIVATE_KEY_FILE). */
function envWith(test: Case, file: string): Record<string, string> {
  const env = test.env();
  return test.name === 'TRIDENT_PRIVATE_KEY_FILE' ? { ...env, TRIDENT_PRIVATE_KEY_FILE: file } : env;
}

async function expectRefusedAtOnce(test: Case, file: string): Promise<void> {
  const sent = allRequestsFrom(services);
  const result = await trident(test.args(file), { env: envWith(test, file) });
  expect(result.exitCode, result.stderr).toBe(2);
  expect(errorOf(result)).toEqual({ message: test.message(file), hint: test.hint });
  expect(result.ms).toBeLessThan(AT_ONCE_MS);
  expect(sent()).toEqual([]);
}

describe('an endless or huge input file ends at once with exit 2 and nothing sent', () => {
  describe.each(CASES)('$name', (test) => {
    const fifos: Array<{ stop(): Promise<void> }> = [];
    afterEach(async () => {
      await Promise.all(fifos.splice(0).map((fifo) => fifo.stop()));
    });

    it('/dev/zero', async () => {
      await expectRefusedAtOnce(test, '/dev/zero');
    });

    it('a FIFO that never ends', async () => {
      const fifo = endlessFifo();
      fifos.push(fifo);
      await expectRefusedAtOnce(test, fifo.path);
    });

    it('a huge sparse file (refused by its size, before a byte is read)', async () => {
      const file = join(scratchDir(), 'sparse');
      writeFileSync(file, '', { mode: 0o600 });
      truncateSync(file, 64 * 1024 ** 3);
      await expectRefusedAtOnce(test, file);
    });
  });

  it('stdin: --public-key -, --from-csv - and api --input - stop reading past the cap', async () => {
    const sent = allRequestsFrom(services);
    const publicKey = await trident(['keys', 'create', '--name', 'endless', '--public-key', '-'], {
      env: keysEnv(),
      input: 'A'.repeat(1024 ** 2 + 1),
    });
    expect(publicKey.exitCode, publicKey.stderr).toBe(2);
    expect(errorOf(publicKey).message).toBe('--public-key - is larger than 1 MiB: not read');
    const csv = await trident(['time', 'customer-update', '--from-csv', '-'], {
      env: { ...timeEnv(), TRIDENT_TIME_TOKEN: 'unused-token', TRIDENT_MAX_CSV_MB: '1' },
      input: `id,name\n${'1,a\n'.repeat(300_000)}`,
    });
    expect(csv.exitCode, csv.stderr).toBe(2);
    expect(errorOf(csv)).toEqual({
      message: 'stdin is larger than 1 MiB: not read',
      hint: 'split the file, or raise TRIDENT_MAX_CSV_MB (MiB, default 64)',
    });
    const body = await trident(['api', 'keys', '/api_keys', '--input', '-'], {
      env: keysEnv(),
      input: `{"name":"${'a'.repeat(8 * 1024 ** 2)}"}`,
    });
    expect(body.exitCode, body.stderr).toBe(2);
    expect(errorOf(body)).toEqual({
      message: '--input - is larger than 8 MiB: not read',
      hint: 'a request body is not that big: check the file',
    });
    expect(sent()).toEqual([]);
  });

  it('a stored token file grown huge (sparse) is refused, not read', async () => {
    const configDir = join(scratchDir(), 'config');
    const { tokenFile } = configWithStoredToken(services, configDir);
    truncateSync(tokenFile, 8 * 1024 ** 3);
    const sent = allRequestsFrom(services);
    const result = await trident(['time', 'projects'], { configDir, env: timeEnv() });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result).message).toBe(`token file ${tokenFile} is larger than 64 KiB: not read`);
    expect(sent()).toEqual([]);
  });

  it('a bad TRIDENT_MAX_CSV_MB is a usage error before anything is read', async () => {
    const result = await trident(['time', 'customer-update', '--from-csv', '/dev/zero'], {
      env: { ...timeEnv(), TRIDENT_TIME_TOKEN: 'unused-token', TRIDENT_MAX_CSV_MB: '0' },
    });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).message).toBe('invalid TRIDENT_MAX_CSV_MB "0": expected a whole number of MiB from 1 to 4096');
  });
});
