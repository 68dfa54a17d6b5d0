// What start-up loads (docs/build.md): one dist file per entry point or import() target, and no
// node:child_process or node:crypto for a command that does not spawn or sign, no node:os with a HOME.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, tempConfigDir } from '../helpers/cli.js';

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

/** The commands the CLI defines for a command line, before parsing it: each group with its commands. */
function definedFor(args: string[]): Record<string, string[]> {
  const script = `
    const cli = require(${JSON.stringify(resolve(ROOT, 'dist/cli.cjs'))});
    const program = cli.buildProgram();
    cli.registerGroups(program, ${JSON.stringify(args)}, () => () => undefined).then(() => {
      process.stdout.write(JSON.stringify(Object.fromEntries(program.commands.map((group) => [group.name(), group.commands.map((command) => command.name())]))));
    });`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, string[]>;
}

describe('the commands defined before parsing', () => {
  const allGroups = ['keys', 'time', 'catalog', 'config', 'status', 'api', 'sandbox', 'completion', 'version', 'help'];

  it('a command line starting with a group and its command defines only those (and help)', () => {
    expect(definedFor(['keys', 'list', '-o', 'json'])).toEqual({ keys: ['list'], help: [] });
    expect(definedFor(['catalog', 'count', '--store', 'keys'])).toEqual({ catalog: ['count'], keys: ['list', 'create', 'generate', 'delete', 'rotate'], help: [] });
  });

  it('stand-ins for everything help or "did you mean" may list: help asked, a typo, an option before the group', () => {
    for (const args of [['keys', 'list', '--help'], ['keys', 'list', '-qh'], ['help', 'keys', 'list'], ['--profile', 'keys', 'kyes']]) {
      expect(Object.keys(definedFor(args)), args.join(' ')).toEqual(allGroups);
      expect(definedFor(args).keys, args.join(' ')).toEqual(['list', 'create', 'generate', 'delete', 'rotate']);
    }
    expect(definedFor(['keys', 'lst'])).toEqual({ keys: ['list', 'create', 'generate', 'delete', 'rotate'], help: [] });
    expect(definedFor(['keys', 'delete', '--name', 'list']).keys).toEqual(['list', 'delete']);
  });
});

describe('a group command', () => {
  it('loads and defines only the command named: keys list reads the keys group and list, not rotate', () => {
    const { files } = startup(['keys', 'list', '--help']);
    expect(files.map((file) => file.replace(/-\w+\.cjs$/, ''))).toEqual(['cli.cjs', 'chunks/keys', 'chunks/list']);
  });
});

describe('the built files', () => {
  it("import node:crypto, node:os and node:child_process's stand-ins as they are: no copy of their getters but for .default", () => {
    const files = ['cli.cjs', ...readdirSync(join(ROOT, 'dist/chunks')).map((name) => `chunks/${name}`)].map((file) => readFileSync(join(ROOT, 'dist', file), 'utf8'));
    const copies = files.flatMap((code) => [...code.matchAll(/([\w$]+)=\(0,[\w$]+\.__toESM\)\(\(0,[\w$]+\.require_(?:crypto|os|child_process)\)\(\),1\)/g)].filter(([, name]) => !code.includes(`${name}.default`)));
    expect(copies.map(([copy]) => copy)).toEqual([]);
    expect(files.some((code) => /import_node_crypto=\(0,[\w$]+\.require_crypto\)\(\)/.test(code))).toBe(true);
  });
});

describe('a command that has nothing to say on stderr', () => {
  // process.stderr is made on first use; for a pipe (a CI log) that is a socket, ~1 ms of a short command. Node's
  // net reads process.stderr whenever it destroys a socket, so the client leaves its idle connection to the process.
  it('never makes process.stderr: catalog count to a pipe, its connection left open to the end', async () => {
    const service = createServer((_request, response) => response.end('{"products_count":7,"stores":null,"regions":null}'));
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const dir = dirname(tempConfigDir());
    const report = join(dir, 'stderr-made.txt');
    const preload = join(dir, 'watch-stderr.cjs');
    writeFileSync(
      preload,
      `const fs = require('node:fs'); const made = Object.getOwnPropertyDescriptor(process, 'stderr'); let used = 'no';
      Object.defineProperty(process, 'stderr', { configurable: true, enumerable: true, get() { used = 'yes'; return made.get.call(process); } });
      process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)}, used));`,
    );
    try {
      const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
      const run = (args: string[]) =>
        execa(process.execPath, ['-r', preload, BIN, ...args], { env: { PATH: process.env.PATH, TRIDENT_CONFIG_DIR: join(dir, 'config') }, extendEnv: false, reject: false, timeout: 20_000, stripFinalNewline: false });
      const quiet = await run(['catalog', 'count', '-o', 'json', '--url', url]);
      expect([quiet.exitCode, quiet.stderr]).toEqual([0, '']);
      expect(JSON.parse(quiet.stdout)).toMatchObject({ products_count: 7 });
      expect(readFileSync(report, 'utf8')).toBe('no');
      // The watch sees stderr when it is used: a command with an error.
      const failing = await run(['catalog', 'count', '--url', 'http://127.0.0.1:1', '--retries', '0']);
      expect(failing.exitCode).toBe(8);
      expect(failing.stderr).toMatch(/^trident: /);
      expect(readFileSync(report, 'utf8')).toBe('yes');
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
