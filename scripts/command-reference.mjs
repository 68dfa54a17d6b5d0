// docs/commands.md, the command reference, made from the built CLI's own help: `trident --help` names the groups,
// each group's help names its commands (and a command with commands of its own, its own), and every one of them is
// run with --help as a script would run it (stdout a pipe, COLUMNS=100, NO_COLOR=1). Nothing here lists a command:
// a command added to the CLI is in the reference once this runs again (`npm run docs:commands`), and
// test/e2e/command-reference.test.ts fails while docs/commands.md differs from what it would write.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BIN = join(ROOT, 'bin/trident.cjs');
export const OUTPUT = join(ROOT, 'docs/commands.md');

/** The environment the help is rendered in, beyond PATH, HOME and a config dir of its own. */
export const HELP_ENV = { COLUMNS: '100', NO_COLOR: '1' };

/**
 * The commands a help text lists under "Commands:", by name: `delete|rm [options] <ids...>` is `delete`. A wrapped
 * description continues on lines indented further, which name nothing; `help` is commander's, not a command.
 */
export function listedCommands(help) {
  const lines = help.split('\n');
  const start = lines.indexOf('Commands:');
  if (start < 0) return [];
  const names = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const term = /^ {2}([a-z][a-z0-9-]*)/.exec(line);
    if (term && term[1] !== 'help') names.push(term[1]);
  }
  return names;
}

/** `trident keys list` → `#trident-keys-list`, as GitHub makes a heading's anchor. */
const anchor = (title) =>
  `#${title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-')}`;

/**
 * The reference as Markdown. `help(path)` returns what `trident <path...> --help` prints on stdout (path [] is
 * `trident --help`); it is asked for the root, then for each command every help lists, in the order listed.
 */
export async function commandReference(help) {
  const sections = [];
  const walk = async (path) => {
    const text = await help(path);
    sections.push({ path, text });
    for (const name of listedCommands(text)) await walk([...path, name]);
  };
  await walk([]);
  const title = (path) => ['trident', ...path].join(' ');
  const contents = sections.map(({ path }) => `${'  '.repeat(Math.max(0, path.length - 1))}- [${title(path)}](${anchor(title(path))})`);
  const body = sections.map(({ path, text }) => {
    const heading = '#'.repeat(path.length === 0 ? 2 : Math.min(path.length + 1, 4));
    return `${heading} ${title(path)}\n\n\`\`\`text\n${text.trimEnd()}\n\`\`\`\n`;
  });
  return [
    '# Command reference',
    '',
    "<!-- Written by scripts/command-reference.mjs from the built CLI's help: run `npm run docs:commands`, do not edit. -->",
    '',
    "Every command's `--help`, as trident prints it. The global options are shown once, under [trident](#trident)",
    '(and by `trident help options`): every command takes them, before or after its name.',
    '',
    '## Contents',
    '',
    ...contents,
    '',
    ...body,
  ].join('\n');
}

/** `trident <path...> --help` run as a script runs it: the built bin/trident.cjs, stdout a pipe, a fixed environment. */
export function helpOfBuiltCli(configDir) {
  return (path) =>
    new Promise((resolve, reject) => {
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, TRIDENT_CONFIG_DIR: configDir, ...HELP_ENV };
      execFile(process.execPath, [BIN, ...path, '--help'], { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error || stderr) reject(new Error(`trident ${[...path, '--help'].join(' ')} failed: ${error?.message ?? ''} ${stderr}`));
        else resolve(stdout);
      });
    });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = mkdtempSync(join(tmpdir(), 'trident-reference-'));
  try {
    writeFileSync(OUTPUT, await commandReference(helpOfBuiltCli(join(base, 'config'))));
    console.log(`wrote ${OUTPUT}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
