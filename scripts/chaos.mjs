// npm run chaos -- --runs 500 [--from N] [--seed N] [--jobs 2]: the chaos harness of the key lifecycle
// (test/chaos, docs/chaos.md) over many seeds, outside vitest. Builds .test-build/ with the test hooks as the tests
// do, bundles the harness (TypeScript) with esbuild into a temporary file and runs its main.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
execFileSync(process.execPath, ['scripts/build.mjs', '--test'], { cwd: root, stdio: 'inherit' });

// The harness finds the CLI and the stand-in application next to its own sources (import.meta.dirname):
// each file keeps its own directory in the bundle.
const ownDirname = {
  name: 'own-dirname',
  setup(bundle) {
    bundle.onLoad({ filter: /\/(src|test)\/.*\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path))),
      loader: 'ts',
    }));
  },
};

const dir = mkdtempSync(join(tmpdir(), 'trident-chaos-harness-'));
const outfile = join(dir, 'harness.mjs');
try {
  await build({
    entryPoints: [join(root, 'test/chaos/main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Bundled CommonJS dependencies call require(): give the ES module one.
    banner: { js: "import { createRequire as __chaosRequire } from 'node:module'; const require = __chaosRequire(import.meta.url);" },
    plugins: [ownDirname],
    logLevel: 'warning',
  });
  const { main } = await import(pathToFileURL(outfile).href);
  process.exitCode = await main(process.argv.slice(2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
