// Bundles src/ into dist/ with esbuild: code splitting, one lazily loaded chunk per command group.
// Dependencies are bundled (bundled undici and conf load several times faster than the packages);
// better-sqlite3 stays external because it is a native addon, jq-wasm because it reads its jq.wasm from
// beside its own files (it is loaded only for --jq).
//
// esbuild splits only ESM, but Node 20 starts CommonJS ~13 ms sooner (no ESM loader, no async file reads):
// the split ESM chunks are converted to CommonJS one by one (.cjs), import() becoming require().
import { execFileSync } from 'node:child_process';
import { build, transform } from 'esbuild';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChunks } from './bundle-chunks.mjs';
import { commandStubs } from './command-stubs.mjs';
import { importStandInsDirectly, lazyBuiltins } from './lazy-builtins.mjs';
import { renderHelp } from './render-help.mjs';

// undici loads node:http2 (~8 ms), node:http (~1.5 ms) and node:assert (~1 ms) at start-up for a few
// constants and invariant checks: it gets stand-ins that load the real module only when it is needed
// (see each stub; test/unit/build-stubs.test.ts holds them to the real modules).
const UNDICI_STUBS = { http2: 'undici-http2-stub.cjs', http: 'undici-http-stub.cjs', assert: 'undici-assert-stub.cjs' };
const lazyBuiltinsForUndici = {
  name: 'lazy-builtins-for-undici',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(http2|http|assert)$/ }, (args) => {
      if (!args.importer.includes('node_modules/undici/')) return undefined;
      return { path: fileURLToPath(new URL(`./${UNDICI_STUBS[args.path.replace(/^node:/, '')]}`, import.meta.url)) };
    });
  },
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// --test-hooks compiles in the test-only hooks (the crash checkpoints, src/keys/crash-points.ts); without it,
// as in `npm run build` and the published package, they are defined away and esbuild drops their code.
const testHooks = process.argv.includes('--test-hooks');
// --outdir <dir>: build elsewhere than dist/ (the test that the published build holds no test hook).
const outdirFlag = process.argv.indexOf('--outdir');
const outdir = outdirFlag >= 0 ? process.argv[outdirFlag + 1] : fileURLToPath(new URL('../dist', import.meta.url));
if (!outdir) throw new Error('--outdir needs a directory');
// The test run rebuilds with --no-clean so that a CLI process started meanwhile still finds its chunks.
if (!process.argv.includes('--no-clean')) rmSync(outdir, { recursive: true, force: true });

const entryPoints = { cli: 'src/cli.ts', 'sandbox-api': 'src/sandbox/library.ts' };

/** Bundles into `dir`; `stubs` are what each group's help shows of its commands (src/subcommands.ts). */
async function buildInto(dir, stubs) {
  const { outputFiles, metafile } = await build({
    entryPoints,
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'jq-wasm'],
    define: {
      __TRIDENT_VERSION__: JSON.stringify(pkg.version),
      __TRIDENT_TEST_HOOKS__: String(testHooks),
      __TRIDENT_COMMAND_STUBS__: JSON.stringify(stubs ?? null),
    },
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.cjs' },
    write: false,
    metafile: true,
    plugins: [lazyBuiltins, lazyBuiltinsForUndici],
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });

  const outputPath = (path) => relative(dir, resolve(path));
  const code = new Map();
  for (const file of outputFiles) {
    const { code: commonjs } = await transform(file.text, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'warning',
    });
    code.set(outputPath(file.path), importStandInsDirectly(commonjs));
  }
  const imports = new Map();
  const entries = [];
  for (const [path, output] of Object.entries(metafile.outputs)) {
    const internal = (kind) => output.imports.filter((edge) => edge.kind === kind && !edge.external).map((edge) => outputPath(edge.path));
    imports.set(outputPath(path), { static: internal('import-statement'), dynamic: internal('dynamic-import') });
    // (esbuild names the target of an import() an entry point too)
    if (Object.values(entryPoints).includes(output.entryPoint)) entries.push(outputPath(path));
  }
  for (const [path, text] of bundleChunks(code, imports, entries)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

// Built into a staging directory first, where the built CLI can run (its external packages resolve through a link
// to node_modules), then copied to the output directory. Twice: the first build, with every command defined, gives
// the second what its groups' help shows of the commands it does not define (scripts/command-stubs.mjs); the help
// of every command is then rendered by the second (scripts/render-help.mjs).
const staging = mkdtempSync(join(tmpdir(), 'trident-build-'));
try {
  symlinkSync(fileURLToPath(new URL('../node_modules', import.meta.url)), join(staging, 'node_modules'), 'junction');
  const load = (dir) => createRequire(import.meta.url)(join(dir, 'cli.cjs'));
  await buildInto(join(staging, 'all-commands'), undefined);
  await buildInto(join(staging, 'dist'), await commandStubs(load(join(staging, 'all-commands'))));
  await renderHelp(join(staging, 'dist'), load(join(staging, 'dist')));
  // V8's code cache of dist/ (read back by createDistLoader in bin/trident.cjs), made by a Node with its default
  // flags. Only a speed-up: a build where it cannot be made (no loopback, say) goes on without it, as trident runs
  // without one (test/e2e/code-cache.test.ts fails the test run instead).
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL('./code-cache.mjs', import.meta.url)), join(staging, 'dist')], {
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
  } catch (error) {
    console.warn(`build: no V8 code cache for dist/ (${error.message.split('\n')[0]}); trident works without it, a little slower`);
    rmSync(join(staging, 'dist', 'code-cache'), { recursive: true, force: true });
  }
  // Even with --no-clean: the help of a command removed since must not be served.
  rmSync(join(outdir, 'help'), { recursive: true, force: true });
  rmSync(join(outdir, 'code-cache'), { recursive: true, force: true });
  cpSync(join(staging, 'dist'), outdir, { recursive: true });
} finally {
  rmSync(staging, { recursive: true, force: true });
}
