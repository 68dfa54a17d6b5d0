// The crash checkpoints (TRIDENT_TEST_CRASH_AFTER) are test-only: the build the tests run has them
// (`--test`, the global setup's .test-build/), the published build (`node scripts/build.mjs`, no flag) holds no
// trace of them. The published form is built here, into a directory of its own.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
// What the binary tests run: the launcher loads the dist/ beside it.
const TEST_BUILD = resolve(dirname(BIN), '../dist');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const mentioning = (dir: string, text: string) => filesUnder(dir).filter((file) => readFileSync(file, 'utf8').includes(text));

describe('test hooks in the build', () => {
  it('the published build holds no TRIDENT_TEST_CRASH_AFTER; the test build does', () => {
    const root = mkdtempSync(join(tmpdir(), 'trident-build-'));
    // The build renders help with the CLI it made, which finds its packages (jq-wasm, node-sqlite3-wasm) from there.
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    const outdir = join(root, 'dist');
    execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', outdir], { cwd: ROOT, stdio: 'pipe' });
    expect(filesUnder(outdir).some((file) => file.endsWith('cli.cjs'))).toBe(true);
    expect(mentioning(outdir, 'TRIDENT_TEST_CRASH_AFTER')).toEqual([]);
    // Not vacuous: the build the tests run (made with --test) has the hook.
    expect(filesUnder(TEST_BUILD).some((file) => file.endsWith('cli.cjs'))).toBe(true);
    expect(mentioning(TEST_BUILD, 'TRIDENT_TEST_CRASH_AFTER').length).toBeGreaterThan(0);
  }, 60_000);
});
