// The crash checkpoints (TRIDENT_TEST_CRASH_AFTER) are test-only: the build the tests run has them
// (`--test`), the published build (`node scripts/build.mjs`, no flag) holds no trace of them. Both are
// built here, each into a directory of its own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const mentioning = (dir: string, text: string) => filesUnder(dir).filter((file) => readFileSync(file, 'utf8').includes(text));

describe('test hooks in the build', () => {
  it('the published build holds no TRIDENT_TEST_CRASH_AFTER; the test build does', () => {
    const build = (...flags: string[]) => {
      const root = mkdtempSync(join(tmpdir(), 'trident-build-'));
      // The build renders help with the CLI it made, which finds its packages (better-sqlite3) from there.
      symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
      const outdir = join(root, 'dist');
      execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir, ...flags], { cwd: ROOT, stdio: 'pipe' });
      expect(filesUnder(outdir).some((file) => file.endsWith('cli.cjs'))).toBe(true);
      return outdir;
    };
    expect(mentioning(build(), 'TRIDENT_TEST_CRASH_AFTER')).toEqual([]);
    // Not vacuous: the build the tests run (made with --test) has the hook.
    expect(mentioning(build('--test'), 'TRIDENT_TEST_CRASH_AFTER').length).toBeGreaterThan(0);
  }, 60_000);
});
