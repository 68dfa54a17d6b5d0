// `trident <command...> --help` printed to a pipe or a file is the same text every time: the build renders it
// with the built CLI itself into dist/help/<group>/<command>.txt (dist/help/index.txt for `trident --help`), and
// bin/trident.cjs prints that file instead of loading the CLI. On a terminal help is wrapped to the terminal's
// width, so there the CLI renders it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The help of every command of `cli` (the built CLI's exports) as printed to a pipe: { 'keys list': text }. */
export async function renderAll(cli, env = {}) {
  const program = cli.buildProgram();
  await cli.registerGroups(program, [], () => () => undefined, true);
  const paths = [];
  const walk = (command, path) => {
    paths.push(path);
    for (const sub of command.commands) if (sub.name() !== 'help') walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  const help = {};
  for (const path of paths) {
    const out = [];
    const io = { stdout: { write: (text) => out.push(text) }, stderr: { write: (text) => out.push(`stderr: ${text}`) } };
    const exitCode = await cli.main(['node', 'trident', ...path, '--help'], { io, env });
    if (exitCode !== 0) throw new Error(`render-help: "trident ${path.join(' ')} --help" exited ${exitCode}: ${out.join('')}`);
    help[path.join(' ')] = out.join('');
  }
  return help;
}

/** Writes the help of every command of `cli` under `outdir`/help. */
export async function renderHelp(outdir, cli) {
  for (const [path, text] of Object.entries(await renderAll(cli))) {
    const file = join(outdir, 'help', `${path ? path.replaceAll(' ', '/') : 'index'}.txt`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
