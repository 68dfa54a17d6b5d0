// Bundles src/ into one CommonJS file, dist/cli.cjs, with esbuild. Modules imported with import() run only
// when first imported, so a command pays for running only the code it uses. Three large libraries that few
// commands need are bundled into files of their own under dist/vendor/ and read from disk only when first used:
// undici (proxies and catalog --all), conf (settings changes) and node-forge (the sandbox's certificates).
// jq-wasm and node-sqlite3-wasm (each reads its .wasm from beside its own files) stay packages.
// Then the help of every command is rendered into dist/help/, which bin/trident.cjs prints without loading the CLI.
//
//   node scripts/build.mjs           dist/, as published
//   node scripts/build.mjs --test    .test-build/ (dist/ and a copy of bin/) for the test run, with the test-only
//                                    hooks compiled in (src/keys/crash-points.ts); dist/ is left as it is
//   --outdir <dir>                   the bundle into <dir> instead (with --test, a copy of bin/ beside it)
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderHelp } from './render-help.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const forTests = process.argv.includes('--test');
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag >= 0 ? process.argv[outdirFlag + 1] : forTests ? `${root}.test-build/dist` : `${root}dist`;
if (!outdir) throw new Error('build: --outdir needs a directory');
const VENDOR = ['undici', 'conf', 'node-forge'];

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.cjs' },
  legalComments: 'none',
  // import() of a file left outside the bundle becomes a require: the launcher compiles the bundle itself with
  // a code cache (bin/trident.cjs), and a function V8 takes from a code cache cannot start an import().
  supported: { 'dynamic-import': false },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

/** Imports of a vendored library become requires of its file in dist/vendor/. */
const vendored = {
  name: 'vendored',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${VENDOR.join('|')})$`) }, (args) => ({ path: `./vendor/${args.path}.cjs`, external: true }));
  },
};

/**
 * commander loads node:child_process (and with it node:dgram) as it is loaded, for subcommands that are programs
 * of their own, which trident has none of: every command would pay for loading them. commander gets its spawn on
 * first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'lazy-child-process', namespace: 'lazy-child-process' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
    }));
  },
};

/**
 * The file of a vendored library exports what `import()` of the package gives: the default export of an ES module
 * package (conf) stands for the whole module, as a CommonJS package's exports do.
 */
const vendorEntries = {
  name: 'vendor-entries',
  setup(build) {
    build.onResolve({ filter: /^vendor-entry:/ }, (args) => ({ path: args.path.slice('vendor-entry:'.length), namespace: 'vendor-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'vendor-entry' }, (args) => ({
      contents: `const m = require(${JSON.stringify(args.path)}); module.exports = m.__esModule && 'default' in m ? m.default : m;`,
      resolveDir: root,
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: VENDOR.map((name) => ({ in: `vendor-entry:${name}`, out: `vendor/${name}` })),
  plugins: [vendorEntries],
});
await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', 'code-cache': 'src/launcher/code-cache.ts', 'sandbox-api': 'src/sandbox/library.ts' },
  external: ['jq-wasm', 'node-sqlite3-wasm'],
  plugins: [vendored, lazyChildProcess],
  define: { __TRIDENT_VERSION__: JSON.stringify(pkg.version), __TRIDENT_TEST_HOOKS__: String(forTests) },
});
// esbuild writes non-ASCII text as escapes, except in regular expressions. A single non-ASCII character and Node
// reads the whole file as two-byte text, which makes loading it cost every command about twice as much.
for (const file of ['cli.cjs', ...VENDOR.map((name) => `vendor/${name}.cjs`)]) {
  const text = readFileSync(`${outdir}/${file}`, 'latin1');
  if (/[^\x00-\x7f]/.test(text)) throw new Error(`build: dist/${file} is not ASCII (a regular expression with a non-ASCII character?)`);
  if (/\bimport\(/.test(text)) throw new Error(`build: dist/${file} starts an import(), which its code cache cannot run`);
}
// The launcher's code cache is keyed by this line: a cache made for another build is never offered to this one.
appendFileSync(
  `${outdir}/cli.cjs`,
  `//# build ${createHash('sha256')
    .update(readFileSync(`${outdir}/cli.cjs`))
    .digest('hex')}\n`,
);
await renderHelp(outdir, createRequire(import.meta.url)(`${outdir}/cli.cjs`));
if (forTests) {
  cpSync(`${root}bin`, `${dirname(outdir)}/bin`, { recursive: true });
  cpSync(`${root}package.json`, `${dirname(outdir)}/package.json`);
}
