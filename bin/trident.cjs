#!/usr/bin/env node
// Starts the CLI bundled in dist/. Node 22.1 and later keep what they compile of the libraries in dist/vendor/ in
// their compile cache; the bundle itself is loaded with a code cache of its own (src/launcher/code-cache.ts).
// NODE_DISABLE_COMPILE_CACHE=1 goes without either. Two answers never change between runs of one build and are
// given without loading the CLI: `--version`, and the help of a command printed to a pipe or a file, which the
// build rendered into dist/help/.
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const dist = path.join(__dirname, '..', 'dist');
const text = args.length === 1 && ['--version', '-V'].includes(args[0]) ? `${require('../package.json').version}\n` : renderedHelp(args);
if (text === undefined) {
  runCli();
} else {
  // As in the CLI: a reader gone (`| head`) is exit 0; any other failure (a full disk) the CLI reports.
  process.stdout.on('error', (error) => (error.code === 'EPIPE' ? process.exit(0) : runCli()));
  process.stdout.write(text);
}

function runCli() {
  require('node:module').enableCompileCache?.();
  const cli = require(path.join(dist, 'code-cache.cjs')).loadBundle(path.join(dist, 'cli.cjs'), args, process.env);
  cli.exports.main(process.argv).then((code) => {
    process.exitCode = code;
    cli.save();
  });
}

/** The rendered help of exactly `[<group> [<command>]] --help|-h`, when stdout is not a terminal. */
function renderedHelp(args) {
  const names = args.slice(0, -1);
  if (names.length > 2 || !['--help', '-h'].includes(args.at(-1)) || !names.every((name) => /^[a-z][a-z0-9-]*$/.test(name)))
    return undefined;
  if (require('node:tty').isatty(1)) return undefined;
  try {
    return fs.readFileSync(path.join(dist, 'help', `${names.length ? names.join('/') : 'index'}.txt`), 'utf8');
  } catch {
    return undefined; // no such command: the CLI says so
  }
}
