#!/usr/bin/env node
// `trident --version` runs thousands of times in scripts: answer it without loading the CLI.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(require.resolve('../package.json'), 'utf8')).version}\n`);
} else {
  require('../dist/cli.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}
