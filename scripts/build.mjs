// Bundles src/ into dist/ with esbuild: ESM, code splitting, one lazily imported chunk per command group.
// Dependencies are bundled (bundled undici and conf load several times faster than the packages);
// better-sqlite3 stays external because it is a native addon.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// commander loads node:child_process at start-up for executable subcommands, which trident never uses;
// loading it (and net, dgram, streams with it) costs every invocation a few ms. Give commander a lazy stand-in.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/') ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_target, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

// undici's HTTP/2 client loads node:http2 (~8 ms) at start-up for a few constants; see the stub.
const lazyHttp2ForUndici = {
  name: 'lazy-http2-for-undici',
  setup(build) {
    build.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
      args.importer.includes('node_modules/undici/') ? { path: fileURLToPath(new URL('./undici-http2-stub.cjs', import.meta.url)) } : undefined,
    );
  },
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// The test run rebuilds with --no-clean so that a CLI process started meanwhile still finds its chunks.
if (!process.argv.includes('--no-clean')) rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts', 'sandbox-api': 'src/sandbox/api.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3'],
  define: { __TRIDENT_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give ESM chunks a real one.
  banner: { js: "import { createRequire as __tridentCreateRequire } from 'node:module'; const require = __tridentCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [lazyChildProcessForCommander, lazyHttp2ForUndici],
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
