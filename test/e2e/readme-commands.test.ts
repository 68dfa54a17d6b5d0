// Every `trident ...` command of README.md and of the command pages it links to in docs/, run as written, page
// after page in PAGES order, against a `trident sandbox` started the way the README says (a child process; its
// `sandbox` profile). A line that fails is a documentation defect. A line that cannot run here is in SKIP with its
// reason; a placeholder (`7f1c...`) is replaced by a real sandbox value. A line a page repeats from an earlier
// one (the README's examples are also on their group's page) runs once, where it first appears.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/endpoints.js';
import { BIN, childEnv, runCli, spawnCli } from '../helpers/cli.js';
import { waitForFile } from '../helpers/processes.js';
import { readmeCommands, type ReadmeCommand } from './readme-lines.js';
import { untagged } from '../../src/keys/mint/tag.js';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * The pages whose commands run, in this order: one reader's session. time.md comes after the pages that use the
 * time service, for it ends with `time logout`.
 */
const PAGES = [
  'README.md',
  'docs/keys.md',
  'docs/catalog.md',
  'docs/api.md',
  'docs/configuration.md',
  'docs/automation.md',
  'docs/security.md',
  'docs/time.md',
  'docs/sandbox.md',
];

function pagesText(): string {
  return PAGES.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
}

/** The commands of every page, each line once, where it first appears. */
function documentedCommands(): ReadmeCommand[] {
  const commands = PAGES.flatMap((page) => readmeCommands(readFileSync(join(ROOT, page), 'utf8')));
  return commands.filter((command, i) => commands.findIndex((other) => other.line === command.line) === i);
}

/** Lines that cannot run here, each with why. A key ending in ` …` names the lines it starts. */
const SKIP: Record<string, string> = {
  'trident sandbox': 'the test starts the sandbox itself, on free ports (--port 0)',
  'trident sandbox [--dir <dir>] …': 'a synopsis of the options, not a command',
  'trident keys generate --name mover --scopes read,write::transfer --url demo': "the exchange's demo environment is on the internet",
  'trident time login --email me@example.com --account-id 1':
    'asks for the password at a hidden terminal prompt (the --password-stdin line logs in the same way)',
  'trident keys setup': 'asks at a terminal: the lines with flags below run the same set-up',
  'trident keys setup --url demo --key-id "$KEY_ID" --private-key - < key.pem': "the exchange's demo environment is on the internet",
  'trident keys move-to-keyring': 'needs an OS keyring: keyring-move.test.ts runs it against a real Secret Service',
  '- run: trident keys rotate --resume --yes': 'a GitHub Actions step: its key and URL are repository secrets',
  "trident keys rotate --yes -o json --if-older-than 90d --deploy 'gh secret set …": 'needs gh, GitHub and a deployed application',
  "trident keys rotate --yes --deploy 'kubectl …": 'needs kubectl and a cluster',
};

/** Files the documented commands read, made in the working directory before the first command runs. */
function writeReadFiles(cwd: string): void {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(join(cwd, 'hsm-public.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(join(cwd, 'renames.csv'), 'id,name\n3,Müller & Söhne GmbH\n4,Café Zürich AG\n');
  // The application's deploy and smoke test: take the PEM, say it worked.
  writeFileSync(join(cwd, 'deploy.sh'), '#!/bin/sh\ncat > /dev/null\n', { mode: 0o755 });
  writeFileSync(join(cwd, 'smoke.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

let sandbox: ReturnType<typeof spawnCli>;
let configDir: string;
let cwd: string;
/** The home of the lines that write into one (completion scripts): empty at first, as a new account's is. */
let home: string;
const IN_HOME = /^mkdir -p ~\//;

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'trident-readme-'));
  configDir = join(base, 'config');
  cwd = join(base, 'work');
  mkdirSync(cwd);
  home = join(base, 'home');
  mkdirSync(home);
  writeReadFiles(cwd);
  sandbox = spawnCli(['sandbox', '--port', '0', '--dir', join(base, 'sandbox'), '--products', '300'], { configDir, timeoutMs: 120_000 });
  await waitForFile(join(configDir, 'settings.json'));
});
afterAll(async () => {
  sandbox.kill('SIGINT');
  await sandbox;
});

/** A command of trident on the sandbox profile, for the test's own look-ups. */
async function trident(args: string[], env: Record<string, string> = {}) {
  return runCli(args, { configDir, env: { TRIDENT_PROFILE: 'sandbox', ...env } });
}

async function keyNamed(name: string): Promise<string> {
  const keys = JSON.parse((await trident(['keys', 'list', '-o', 'json'])).stdout) as Array<{ api_key: string; name: string }>;
  const key = keys.find((candidate) => untagged(candidate.name) === name);
  if (!key) throw new Error(`no key named ${name}: ${keys.map((k) => k.name).join(', ')}`);
  return key.api_key;
}

function sandboxProfile(): Record<string, string> {
  return JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles.sandbox;
}

/** Placeholders in the pages and the sandbox values that stand in for them, looked up when a line needs one. */
const PLACEHOLDERS: Record<string, () => Promise<string>> = {
  '7f1c...': () => keyNamed('ci-reader'), // keys delete: the key made by `keys create --name ci-reader` above
  '/api_keys/KEY_ID': async () => `/api_keys/${await keyNamed('once')}`, // a key not in use
  'me@example.com': async () => SANDBOX_TIME_USER.email,
  'TRIDENT_KEYS_URL=https://api.example.com/trade-api/v2': async () => `TRIDENT_KEYS_URL=${sandboxProfile()['keys.url']}`,
};

const CI_KEY = 'ci-job';
const WEBSITE_KEY = 'from-website';

/** Variables the documented lines expect the reader to have. */
const VARIABLES: Record<string, () => Promise<string>> = {
  PASSWORD: async () => SANDBOX_TIME_USER.password,
  // The CI job's own key (made by BEFORE below), not the sandbox profile's: the rotation deletes it.
  CURRENT_KEY_ID: () => keyNamed(CI_KEY),
  CURRENT_PRIVATE_KEY: async () => readFileSync(join(cwd, `${CI_KEY}.pem`), 'utf8'),
  // A key "made on the website" (by BEFORE below), whose private key file is ./key.pem.
  KEY_ID: () => keyNamed(WEBSITE_KEY),
};

/** What a reader has done before a line, where the page says so in its prose. */
const BEFORE: Record<string, { why: string; run: () => Promise<void> }> = {
  'trident keys rotate --resume --yes': { why: 'it finishes a rotation that was interrupted', run: interruptRotation },
  'trident keys rotate --abort --yes': { why: 'it undoes a rotation that was interrupted', run: interruptRotation },
  'report=$(trident keys rotate --yes -o json --out ./new-key.pem)': {
    why: 'a CI job has a key of its own in its secrets',
    run: makeCiKey,
  },
  'trident keys setup --key-id "$KEY_ID" --private-key ./key.pem': {
    why: "the reader made a key on the exchange's website and saved its private key file",
    run: async () => {
      const made = await trident(['keys', 'generate', '--name', WEBSITE_KEY, '--out', join(cwd, 'key.pem')]);
      expect(made.exitCode, made.stderr).toBe(0);
    },
  },
};

let interrupted = 0;

/** A rotation killed once the profile uses its new key. Named: the default name has the second in it only. */
async function interruptRotation(): Promise<void> {
  const killed = await spawnCli(['keys', 'rotate', '--yes', '--name', `interrupted-${++interrupted}`], {
    configDir,
    env: { TRIDENT_PROFILE: 'sandbox', [CRASH_ENV]: 'switched' },
  });
  expect(killed.signal, String(killed.stderr)).toBe('SIGKILL');
}

async function makeCiKey(): Promise<void> {
  const made = await trident(['keys', 'generate', '--name', CI_KEY, '--out', join(cwd, `${CI_KEY}.pem`)]);
  expect(made.exitCode, made.stderr).toBe(0);
}

/** The configuration examples set up the reader's own profiles: they run on `default`, not on the sandbox's. */
const ON_DEFAULT_PROFILE = /^trident (--profile \S+ )?config /;

function names(key: string, line: string): boolean {
  return key.endsWith(' …') ? line.startsWith(key.slice(0, -2)) : line === key;
}

function skipReason(line: string): string | undefined {
  return Object.entries(SKIP).find(([key]) => names(key, line))?.[1];
}

async function scriptOf(command: ReadmeCommand): Promise<string> {
  // A workflow step (`- run: trident ...`) runs its command.
  let script = [...command.exports, command.script.replace(/^- run: /, '')].join('\n');
  for (const [placeholder, value] of Object.entries(PLACEHOLDERS)) {
    if (script.includes(placeholder)) script = script.replaceAll(placeholder, await value());
  }
  return script;
}

/** Runs one documented command in bash (`set -e`: each command of a `;` chain counts), `trident` being the built binary,
 * in the working directory all lines share. */
async function runCommand(command: ReadmeCommand) {
  const script = await scriptOf(command);
  const needed = Object.entries(VARIABLES).filter(([name]) => script.includes(`$${name}`));
  const variables = Object.fromEntries(await Promise.all(needed.map(async ([name, value]) => [name, await value()])));
  const profile = ON_DEFAULT_PROFILE.test(command.line) ? {} : { TRIDENT_PROFILE: 'sandbox' };
  const ownHome = IN_HOME.test(command.line) ? { HOME: home } : {};
  const result = await execa('bash', ['--norc', '-c', `set -e\ntrident() { "$NODE" "$BIN" "$@"; }\n${script}`], {
    cwd,
    env: { ...childEnv({ configDir, env: { ...profile, ...variables, ...ownHome } }), NODE: process.execPath, BIN },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 30_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('documented commands on the sandbox', () => {
  const commands = documentedCommands();

  it('finds the commands as a reader copies them', () => {
    const markdown = [
      'Prose with `trident keys list` inline is no command.',
      '```sh',
      '# trident in a comment is none either',
      'trident keys list            # a comment',
      'x=$(trident version); trident status',
      'printf \'%s\' "$P" | trident time login --password-stdin',
      'make && trident catalog health',
      'export A=1',
      'trident catalog dynamics X \\',
      '  --chart',
      'if n=$(trident catalog count); then',
      '  echo "$n"',
      'fi',
      '```',
      '```yaml',
      '  - run: trident keys rotate --resume --yes',
      "  - run: trident keys rotate --deploy 'a &&",
      "      b' --yes",
      '```',
    ].join('\n');
    const found = readmeCommands(markdown);
    expect(found.map((command) => command.line)).toEqual([
      'trident keys list',
      'x=$(trident version); trident status',
      'printf \'%s\' "$P" | trident time login --password-stdin',
      'make && trident catalog health',
      'trident catalog dynamics X --chart',
      'if n=$(trident catalog count); then',
      '- run: trident keys rotate --resume --yes',
      "- run: trident keys rotate --deploy 'a && b' --yes",
    ]);
    expect(found[5]!.script).toBe('if n=$(trident catalog count); then\n  echo "$n"\nfi');
    expect(found[4]!.exports).toEqual(['export A=1']);
    expect(found[0]!.exports).toEqual([]);
  });

  it('every documented trident line is run or skipped with a reason, and every table entry names a documented line', () => {
    expect(commands.length).toBeGreaterThan(50);
    const lines = commands.map((command) => command.line);
    for (const key of Object.keys(SKIP))
      expect(
        lines.filter((line) => names(key, line)),
        `SKIP entry names no documented line: ${key}`,
      ).toHaveLength(1);
    for (const key of Object.keys(BEFORE)) expect(lines, `BEFORE entry names no documented line: ${key}`).toContain(key);
    const text = pagesText();
    for (const placeholder of [...Object.keys(PLACEHOLDERS), ...Object.keys(VARIABLES).map((name) => `$${name}`)])
      expect(text, placeholder).toContain(placeholder);
    // An elided id (`0b6f...`) cannot be run as written: each one left is a placeholder the test stands in for.
    for (const line of lines)
      for (const elided of line.match(/\S*\w\.\.\.\S*/g) ?? [])
        expect(
          Object.keys(PLACEHOLDERS).some((placeholder) => elided.includes(placeholder)),
          `${elided} in: ${line}`,
        ).toBe(true);
  });

  it('every line that can run here exits 0 with no error, in page order', async () => {
    let ran = 0;
    for (const command of commands) {
      if (skipReason(command.line)) continue;
      await BEFORE[command.line]?.run();
      const result = await runCommand(command);
      expect(result.exitCode, `${command.line}\n${result.stderr}`).toBe(0);
      expect(result.stderr, command.line).not.toMatch(/^trident:/m);
      const redirect = / > (\S+)$/.exec(command.line)?.[1];
      if (redirect) {
        const target = redirect.startsWith('~/') ? join(home, redirect.slice(2)) : join(cwd, redirect);
        expect(statSync(target).size, `${command.line} wrote nothing`).toBeGreaterThan(0);
      }
      ran++;
    }
    expect(ran).toBe(commands.length - Object.keys(SKIP).length);
    // The completion scripts went where each shell looks, on an account that had none of those directories.
    for (const [shell, file] of [
      ['bash', '.local/share/bash-completion/completions/trident'],
      ['zsh', '.zfunc/_trident'],
      ['fish', '.config/fish/completions/trident.fish'],
    ])
      expect(readFileSync(join(home, file), 'utf8'), file).toContain(`# ${shell} completion for trident`);
    // The CI rotation left the new private key where it said, private, and deleted the job's old key only.
    expect(statSync(join(cwd, 'new-key.pem')).mode & 0o777).toBe(0o600);
    await expect(keyNamed(CI_KEY)).rejects.toThrow(/no key named/);
    expect((await trident(['keys', 'list', '--jq', '.[] | select(.in_use) | .api_key'])).stdout.trim()).toBe(
      sandboxProfile()['keys.keyId'],
    );
    // The cron example appended one dated record.
    expect(readFileSync(join(cwd, 'counts.ndjson'), 'utf8')).toMatch(/^\{"at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ","products_count":\d+/);
    // The cron rotation (-q) found the key not due and said nothing, and the catalog export replaced the last one whole.
    expect(readFileSync(join(cwd, 'rotations.ndjson'), 'utf8')).toBe('');
    expect(existsSync(join(cwd, 'products.ndjson.part'))).toBe(false);
  }, 120_000);
});
