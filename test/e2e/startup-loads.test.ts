// What start-up loads (docs/build.md): one dist file per entry point or import() target, and no
// node:child_process or node:crypto for a command that does not spawn or sign, no node:os with a HOME.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs the CLI in a plain `node <file>` process and reports the dist files it read and the builtins it loaded. */
function startup(args: string[], extraEnv: Record<string, string> = {}): { files: string[]; builtins: string[] } {
  const script = `
    const main = require(${JSON.stringify(resolve(ROOT, 'dist/cli.cjs'))}).main;
    main(['node', 'trident', ...${JSON.stringify(args)}], { io: { stdout: { write: () => true }, stderr: { write: () => true } }, env: process.env }).then(() => {
      const files = Object.keys(require.cache).filter((file) => file.startsWith(${JSON.stringify(`${ROOT}/dist/`)})).map((file) => file.slice(${ROOT.length + 6}));
      const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
      process.stdout.write(JSON.stringify({ files, builtins }));
    });`;
  const configDir = tempConfigDir();
  // A file, not node -e: -e loads node:crypto itself.
  const file = join(dirname(configDir), 'startup.cjs');
  writeFileSync(file, script);
  const env = { PATH: process.env.PATH, TRIDENT_CONFIG_DIR: configDir, ...extraEnv };
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: ROOT, env, encoding: 'utf8' })) as { files: string[]; builtins: string[] };
}

describe('start-up', () => {
  it('catalog --help reads dist/cli.cjs and the catalog group file only', () => {
    const { files } = startup(['catalog', '--help']);
    expect(files).toHaveLength(2);
    expect(files[0]).toBe('cli.cjs');
    expect(files[1]).toMatch(/^chunks\/catalog-\w+\.cjs$/);
  });

  it('--help reads dist/cli.cjs only', () => {
    expect(startup(['--help']).files).toEqual(['cli.cjs']);
  });

  it('keys --help loads neither node:child_process nor node:crypto', () => {
    const { builtins } = startup(['keys', '--help']);
    expect(builtins).not.toContain('child_process');
    expect(builtins).not.toContain('crypto');
  });

  it('node:os is loaded only to find a home directory when HOME is no use', () => {
    const home = dirname(tempConfigDir());
    const withHome = startup(['config', 'path'], { TRIDENT_CONFIG_DIR: '', HOME: home });
    expect(withHome.builtins).not.toContain('os');
    expect(startup(['config', 'path'], { TRIDENT_CONFIG_DIR: '', HOME: 'relative/home' }).builtins).toContain('os');
  });
});

describe('a group command', () => {
  it('loads and defines only the command named: keys list reads the keys group and list, not rotate', () => {
    const { files } = startup(['keys', 'list', '--help']);
    expect(files.map((file) => file.replace(/-\w+\.cjs$/, ''))).toEqual(['cli.cjs', 'chunks/keys', 'chunks/list']);
  });
});
