// The pending-record store: written 0600 in a 0700 directory; claimed by rename so that two commands never
// settle one record; a record of a live process, or of another service, is left alone; a claim left by a dead
// process is taken over; a record given back is found again.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  anyPending,
  claimPending,
  pendingDir,
  releasePending,
  removePending,
  writePending,
  type PendingRecord,
} from '../../../src/keys/mint/pending.js';

const URL_A = 'http://127.0.0.1:1/trade-api/v2';
const URL_B = 'http://127.0.0.1:2/trade-api/v2';
const NOW = new Date('2026-11-22T10:00:00Z');
const request = (url: string) => ({
  verb: 'generate' as const,
  name: 'n',
  sent_name: 'n~0123abcd',
  url,
  scopes: ['read'],
  target_file: null,
});

/** The pid of a process that has ended. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

let configDir: string;
beforeEach(() => {
  configDir = join(mkdtempSync(join(tmpdir(), 'trident-pending-')), 'config');
});

/** Makes a record look as if another process (`pid`) wrote it. */
function ownedBy(path: string, pid: number): void {
  const record = JSON.parse(readFileSync(path, 'utf8')) as PendingRecord;
  writeFileSync(path, JSON.stringify({ ...record, pid }));
}

describe('pending records', () => {
  it('are written 0600 in a 0700 directory with what was asked, and removed', async () => {
    expect(anyPending(configDir)).toBe(false);
    const entry = await writePending(configDir, request(URL_A), NOW);
    expect(statSync(entry.path).mode & 0o777).toBe(0o600);
    expect(statSync(pendingDir(configDir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(entry.path, 'utf8'))).toEqual({
      version: 2,
      ...request(URL_A),
      written_at: NOW.toISOString(),
      pid: process.pid,
    });
    expect(anyPending(configDir)).toBe(true);
    await removePending(entry);
    expect(readdirSync(pendingDir(configDir))).toEqual([]);
  });

  it('are claimed once, only for their service, never while their writer lives', async () => {
    const live = await writePending(configDir, request(URL_A), NOW);
    ownedBy(live.path, process.ppid);
    const dead = await writePending(configDir, request(URL_A), NOW);
    ownedBy(dead.path, deadPid());
    const other = await writePending(configDir, request(URL_B), NOW);
    ownedBy(other.path, deadPid());

    const claimed = claimPending(configDir, URL_A);
    expect(claimed.map((entry) => entry.path)).toEqual([`${dead.path}.claimed-${process.pid}`]);
    expect(claimPending(configDir, URL_A)).toEqual([]);

    releasePending(claimed[0]!);
    expect(claimPending(configDir, URL_A)).toHaveLength(1);
  });

  it('takes over a claim left by a dead process, not one of a live process', async () => {
    const stale = await writePending(configDir, request(URL_A), NOW);
    ownedBy(stale.path, deadPid());
    renameSync(stale.path, `${stale.path}.claimed-${deadPid()}`);
    const held = await writePending(configDir, request(URL_A), NOW);
    ownedBy(held.path, deadPid());
    renameSync(held.path, `${held.path}.claimed-${process.ppid}`);

    expect(claimPending(configDir, URL_A).map((entry) => entry.path)).toEqual([`${stale.path}.claimed-${process.pid}`]);
  });

  it('skips what is not a record of this version', async () => {
    const entry = await writePending(configDir, request(URL_A), NOW);
    writeFileSync(entry.path, '{"version":3}');
    writeFileSync(join(pendingDir(configDir), 'notes.txt'), 'x');
    expect(claimPending(configDir, URL_A)).toEqual([]);
  });
});
