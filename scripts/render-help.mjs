// `trident <command...> --help` printed to a pipe or a file is the same text every time: the build renders it
// with the built CLI itself, one file per command under dist/help/, and bin/trident.cjs prints that file for an
// exact match of the command line instead of loading the CLI (~10 ms). On a terminal the help is wrapped to its
// width, so the launcher takes the live path there. test/e2e/help-prerendered.test.ts holds every file to the
// live rendering, under the environments that could change it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where the help of a command path (the names after `trident`) is kept, relative to the output directory:
 * help/index.txt, help/keys.txt, help/keys/list.txt. bin/trident.cjs looks them up the same way.
 */
export function helpFile(path) {
  return `${join('help', ...(path.length ? path : ['index']))}.txt`;
}

/** The program of a built CLI with every command of every group defined (no stand-ins), bound to nothing. */
export async function fullProgram(cli) {
  const program = cli.buildProgram();
  await cli.registerGroups(program, [], () => () => undefined, true);
  return program;
}

/** Every command path of the CLI built in `outdir`, the root first: groups and their commands. */
export async function commandPaths(cli) {
  const program = await fullProgram(cli);
  const paths = [];
  const walk = (command, path) => {
    paths.push(path);
    for (const sub of command.commands) if (sub.name() !== 'help') walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return paths;
}

/** The live rendering of `trident <path...> --help` to a pipe: stdout, stderr and the exit code. */
export async function liveHelp(cli, path, env) {
  const stdout = [];
  const stderr = [];
  const io = { stdout: { write: (text) => stdout.push(text) }, stderr: { write: (text) => stderr.push(text) } };
  const exitCode = await cli.main(['node', 'trident', ...path, '--help'], { io, env });
  return { exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** Writes the help of every command of `cli`, the CLI built in `outdir`. */
export async function renderHelp(outdir, cli) {
  for (const path of await commandPaths(cli)) {
    if (path.some((name) => !/^[a-z][a-z0-9-]*$/.test(name) || name === 'index')) throw new Error(`render-help: no file name for "${path.join(' ')}"`);
    const help = await liveHelp(cli, path, {});
    if (help.exitCode !== 0 || help.stderr) throw new Error(`render-help: "trident ${path.join(' ')} --help" exited ${help.exitCode}: ${help.stderr}`);
    const file = join(outdir, helpFile(path));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, help.stdout);
  }
}
