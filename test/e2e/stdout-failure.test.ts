// stdout going away mid-command: the reader closes the pipe (`| head -1`, a failing `| vault write`) or the
// disk is full. Printing commands stop (a closed pipe is exit 0, a full disk exit 8, one line); work that
// must not stop halfway goes on, and a private key that could not be handed over is not left on the service.
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { BIN, childEnv, spawnCli, tempConfigDir, type CliOptions } from '../helpers/cli.js';
import { seededCatalog, startSandbox as startCatalog } from '../helpers/catalog-fixtures.js';
import { sandboxEnv, startSandbox as startKeys } from '../helpers/keys-sandbox.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';
import { untagged } from '../../src/keys/mint/tag.js';

const time = useTimeSandbox();
let keys: KeysSandbox;
let catalog: CatalogSandbox;

beforeAll(async () => {
  [keys, catalog] = await Promise.all([startKeys(), startCatalog(seededCatalog(1000))]);
});
afterAll(async () => {
  await Promise.all([keys.close(), catalog.close()]);
});

/** Runs trident with nobody reading its stdout: the pipe's other end is closed at once. */
async function withStdoutClosed(args: string[], options: CliOptions) {
  const child = spawnCli(args, options);
  child.stdout!.destroy();
  const result = await child;
  return { exitCode: result.exitCode, stderr: String(result.stderr) };
}

/** Runs trident with stdout on a full disk (/dev/full, given to it as its file descriptor 1). */
async function withStdoutFull(args: string[], options: CliOptions) {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(options) as NodeJS.ProcessEnv, stdio: ['ignore', full, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [exitCode] = (await once(child, 'close')) as [number];
    return { exitCode, stderr };
  } finally {
    closeSync(full);
  }
}

describe('stdout going away', () => {
  it('keys generate --out -: a PEM nobody received is not left as a key on the service', async () => {
    for (const [name, run] of [
      ['closed-pipe', withStdoutClosed],
      ['full-disk', withStdoutFull],
    ] as const) {
      const result = await run(['keys', 'generate', '--name', name, '--out', '-'], { env: sandboxEnv(keys) });
      expect(result.exitCode, result.stderr).toBe(8);
      expect(result.stderr).toMatch(
        new RegExp(
          `^trident: could not store the private key of the new key [0-9a-f-]{36} at stdout \\(cannot write the output: (EPIPE|ENOSPC)\\); the key was deleted on the service again\\n`,
        ),
      );
      expect(keys.control.listKeys().filter((key) => untagged(key.name) === name)).toEqual([]);
    }
  });

  it('a printing command stops: a closed pipe is exit 0, a full disk exit 8 with one line', async () => {
    const env = { TRIDENT_CATALOG_URL: catalog.url };
    const closed = await withStdoutClosed(['catalog', 'products', '--all', '-o', 'ndjson'], { env });
    expect(closed).toEqual({ exitCode: 0, stderr: '' });
    const full = await withStdoutFull(['catalog', 'count'], { env });
    expect(full).toEqual({ exitCode: 8, stderr: 'trident: cannot write the output: ENOSPC\nhint: the disk is full\n' });
  });

  it('what the launcher answers itself, --version and piped help: a closed pipe is exit 0, a full disk exit 8', async () => {
    for (const args of [['--version'], ['keys', 'rotate', '--help'], ['--help']]) {
      expect([args, await withStdoutClosed(args, {})]).toEqual([args, { exitCode: 0, stderr: '' }]);
      expect([args, await withStdoutFull(args, {})]).toEqual([
        args,
        { exitCode: 8, stderr: 'trident: cannot write the output: ENOSPC\nhint: the disk is full\n' },
      ]);
    }
  });

  it('time customer-update --from-csv sends every row even when nobody reads the results', async () => {
    const file = join(tempConfigDir(), '..', 'batch.csv');
    writeFileSync(file, 'id,name\n3,Closed Pipe One\n5,Closed Pipe Two\n7,Closed Pipe Three\n');
    const result = await withStdoutClosed(['time', 'customer-update', '--from-csv', file, '--concurrency', '1', '-o', 'ndjson'], {
      env: time.tokenEnv(),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const names = new Map(time.sandbox.control.customers().map((customer) => [customer.id, customer.name]));
    expect([names.get(3), names.get(5), names.get(7)]).toEqual(['Closed Pipe One', 'Closed Pipe Two', 'Closed Pipe Three']);
  });

  it('stderr going away (its reader killed) does not stop a batch either', async () => {
    const file = join(tempConfigDir(), '..', 'batch-stderr.csv');
    writeFileSync(file, 'id,name\n3,Closed Stderr One\n5,Closed Stderr Two\n');
    const child = spawnCli(['time', 'customer-update', '--from-csv', file, '--concurrency', '1', '-o', 'ndjson'], { env: time.tokenEnv() });
    child.stderr!.destroy();
    const result = await child;
    expect(result.exitCode).toBe(0);
    const names = new Map(time.sandbox.control.customers().map((customer) => [customer.id, customer.name]));
    expect([names.get(3), names.get(5)]).toEqual(['Closed Stderr One', 'Closed Stderr Two']);
  });
});
