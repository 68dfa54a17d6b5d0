// Bundles src/ into dist/ with esbuild: ESM, code splitting, one lazily imported chunk per command group.
// Dependencies are bundled (bundled undici and conf load several times faster than the packages);
// better-sqlite3 stays external because it is a native addon.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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
  legalComments: 'none',
  logLevel: 'warning',
});
