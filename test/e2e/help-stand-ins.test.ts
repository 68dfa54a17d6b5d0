// A group defines only the commands the command line names; the others are stand-ins (src/subcommands.ts) whose
// line in the group's help must be the real command's: every group's help, and the usage error of an unknown
// command, are the same as with every command defined ("completion" on the command line defines them all).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const GROUPS = ['keys', 'time', 'catalog', 'config'];

/** What `trident <args...>` prints and exits with, run in-process by the built CLI, for each command line. */
function outputs(lines: string[][]): Array<{ exitCode: number; stdout: string; stderr: string }> {
  const script = `
    const { main } = require(${JSON.stringify(join(ROOT, 'dist/cli.cjs'))});
    (async () => {
      const results = [];
      for (const args of ${JSON.stringify(lines)}) {
        const out = [], err = [];
        const io = { stdout: { write: (t) => out.push(t) }, stderr: { write: (t) => err.push(t) } };
        const exitCode = await main(['node', 'trident', ...args], { io, env: { TRIDENT_CONFIG_DIR: '/nonexistent/trident' } });
        results.push({ exitCode, stdout: out.join(''), stderr: err.join('') });
      }
      process.stdout.write(JSON.stringify(results));
    })();`;
  const dir = mkdtempSync(join(tmpdir(), 'trident-stand-ins-'));
  try {
    writeFileSync(join(dir, 'run.cjs'), script);
    return JSON.parse(execFileSync(process.execPath, [join(dir, 'run.cjs')], { encoding: 'utf8', env: { PATH: process.env.PATH } })) as Array<{ exitCode: number; stdout: string; stderr: string }>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('stand-ins of the commands a command line does not name', () => {
  it.each(GROUPS)('%s --help is the same as with every command defined', (group) => {
    const [standIns, defined] = outputs([
      [group, '--help'],
      [group, '--help', 'completion'],
    ]);
    expect(standIns!.exitCode).toBe(0);
    expect(standIns!.stdout).toContain('Commands:');
    expect(standIns).toEqual(defined);
  });

  it.each(GROUPS)('an unknown %s command gets the same usage error and suggestion', (group) => {
    const [standIns, defined] = outputs([
      [group, 'lst'],
      [group, 'lst', 'completion'],
    ]);
    expect(standIns!.exitCode).toBe(2);
    expect(standIns).toEqual(defined);
  });
});
