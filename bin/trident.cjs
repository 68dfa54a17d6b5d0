#!/usr/bin/env node
// `trident --version` runs thousands of times in scripts: answer it without loading the CLI. So is help printed
// to a pipe or a file (`trident keys list --help`): the build rendered it (scripts/render-help.mjs).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const fs = require('node:fs');
  writeAll(fs, Buffer.from(`${JSON.parse(fs.readFileSync(require.resolve('../package.json'), 'utf8')).version}\n`));
} else if (!printRenderedHelp(args)) {
  runCli();
}

function runCli() {
  // dist/ is loaded with the V8 code cache the build made for it (see dist-loader.cjs); TRIDENT_CODE_CACHE=0
  // loads it as Node does.
  const dist = `${__dirname}/../dist`;
  const cli = process.env.TRIDENT_CODE_CACHE === '0' ? require(`${dist}/cli.cjs`) : require('./dist-loader.cjs').createDistLoader(dist)(`${dist}/cli.cjs`);
  cli
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}

/** Prints the help the build rendered for exactly `trident [<group> [<command>]] --help|-h`, when stdout is no terminal. */
function printRenderedHelp(args) {
  const names = args.slice(0, -1);
  if (names.length > 2 || !['--help', '-h'].includes(args.at(-1)) || !names.every((name) => /^[a-z][a-z0-9-]*$/.test(name))) return false;
  const fs = require('node:fs');
  let text;
  try {
    if (!stdoutIsNoTerminal(fs)) return false;
    text = fs.readFileSync(`${__dirname}/../dist/help/${(names.length ? names : ['index']).join('/')}.txt`);
  } catch {
    return false; // no such command: the CLI says so
  }
  writeAll(fs, text);
  return true;
}

/** A terminal has a width the help is wrapped to; checked without node:tty, which loads net and streams. */
function stdoutIsNoTerminal(fs) {
  if (process.platform === 'win32') return false;
  const stdout = fs.fstatSync(1);
  if (!stdout.isCharacterDevice()) return true;
  const devNull = fs.statSync('/dev/null');
  return stdout.rdev === devNull.rdev && stdout.ino === devNull.ino;
}

/**
 * Written as the CLI would: a closed pipe is exit 0; a pipe that cannot take more now gets the rest through
 * process.stdout; any other failure takes the live path, which reports it.
 */
function writeAll(fs, text) {
  let written = 0;
  try {
    while (written < text.length) written += fs.writeSync(1, text, written);
  } catch (error) {
    if (error.code === 'EPIPE') return;
    if (error.code === 'EAGAIN') process.stdout.write(text.subarray(written));
    else runCli();
  }
}
