// A secret file is never readable by others, not even for an instant while it is being written. With the
// umask at 0 (so only the mode trident asks for counts), a watcher thread stats every entry of the directory
// in a tight loop while hundreds of secrets are written; it must catch the temp files in flight (or the test
// proves nothing) and must never see one with a group or other bit set.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSecretFile } from '../../src/core/files/secret-file.js';

const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const shared = new Int32Array(workerData.stop);
const seen = { files: 0, temps: 0, loose: [] };
while (Atomics.load(shared, 0) === 0) {
  let names;
  try { names = readdirSync(workerData.dir); } catch { continue; }
  for (const name of names) {
    let mode;
    try { mode = statSync(join(workerData.dir, name)).mode; } catch { continue; }
    seen.files += 1;
    if (name.endsWith('.tmp')) seen.temps += 1;
    if ((mode & 0o077) !== 0) seen.loose.push(name + ' ' + (mode & 0o777).toString(8));
  }
}
parentPort.postMessage(seen);
`;

interface Seen {
  files: number;
  temps: number;
  loose: string[];
}

function watch(dir: string): { stop(): Promise<Seen> } {
  const stop = new SharedArrayBuffer(4);
  const worker = new Worker(WATCHER, { eval: true, workerData: { dir, stop } });
  const result = new Promise<Seen>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      Atomics.store(new Int32Array(stop), 0, 1);
      const seen = await result;
      await worker.terminate();
      return seen;
    },
  };
}

describe('secret files (core/files/secret-file.ts)', () => {
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('are 0600 from the moment they exist, temp files included, with the umask at 0', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'trident-rel-secret-')), 'keys');
    const secret = `-----BEGIN PRIVATE KEY-----\n${'A'.repeat(64 * 1024)}\n-----END PRIVATE KEY-----\n`;
    await writeSecretFile(join(dir, 'first.pem'), secret);
    const watcher = watch(dir);
    for (let round = 0; round < 300; round += 1) await writeSecretFile(join(dir, `key-${round}.pem`), secret, { force: round % 2 === 0 });
    const seen = await watcher.stop();

    expect(seen.temps, 'the watcher must have caught temp files in flight, or this proves nothing').toBeGreaterThan(0);
    expect(seen.loose).toEqual([]);
    const names = readdirSync(dir);
    expect(names).toHaveLength(301);
    for (const name of names) expect((statSync(join(dir, name)).mode & 0o777).toString(8), name).toBe('600');
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
  });
});
