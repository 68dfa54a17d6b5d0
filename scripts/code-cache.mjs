// Build step (scripts/build.mjs runs it in a child process with Node's default flags: V8 refuses a cache made
// under other flags): loads a built dist/ through the loader of bin/trident.cjs, runs what most commands run — defining
// every command of every group, and requests to a stand-in service on loopback (`keys list`, `catalog count`,
// `catalog products --all`: context, settings, key file, signing, the HTTP core over node:http and over undici,
// the output) — then writes each file's V8 code cache, holding the functions compiled meanwhile, to
// <dist>/code-cache/. Every other dist file is compiled, not run.
// Help is not rendered: the functions only help runs would be in the cache every command reads back, costing
// `keys list` ~2% of its time, and live help (a terminal) measured no faster with them than compiling them.
// Nothing here may change a V8 flag: undici's run changes none (below), and jq is not run.
// Usage: node scripts/code-cache.mjs <dist directory>
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fullProgram } from './render-help.mjs';

const { cacheFileFor, compileModule, createDistLoader, encodeCache, readModule } = createRequire(import.meta.url)('../bin/trident.cjs');

const dist = resolve(process.argv[2] ?? 'dist');
const scripts = new Map();
const load = createDistLoader(dist, {
  cachedData: () => undefined,
  compiled: (file, read, script) => scripts.set(file, { bytes: read.bytes, script }),
});

const quiet = { write: () => true, isTTY: false, on: () => quiet, once: () => quiet, off: () => quiet };
const io = { stdout: quiet, stderr: quiet };

/** A product of the stand-in catalog. */
const product = (id) => ({ canonical_product_id: id, title: 'x', brand: null, price_from: 1, price_unit: 'RUB', sources_count: 1, observed_at_latest: '2026-01-01T00:00:00Z', image_url: null, parsers: ['x'] });

/** A stand-in for the keys and catalog services: an empty key list, a count, three products in pages. */
async function standInService() {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    const url = new URL(request.url, 'http://stand-in');
    if (url.pathname === '/products') {
      const [offset, limit] = [Number(url.searchParams.get('offset')), Number(url.searchParams.get('limit'))];
      const items = ['a', 'b', 'c'].slice(offset, offset + limit).map(product);
      response.end(JSON.stringify({ items, meta: { limit, offset, total: 3 } }));
    } else response.end(url.pathname.endsWith('/api_keys') ? '{"api_keys":[]}' : '{"products_count":0,"stores":null,"regions":null}');
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((done) => server.close(done)) };
}

async function exercise(configDir) {
  const cli = load(join(dist, 'cli.cjs'));
  await fullProgram(cli);
  const keyFile = join(configDir, 'key.pem');
  writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const service = await standInService();
  try {
    const env = { TRIDENT_CONFIG_DIR: configDir, TRIDENT_KEY_ID: 'code-cache', TRIDENT_PRIVATE_KEY_FILE: keyFile };
    const runs = [
      ['keys', 'list', '-o', 'json', '--url', `${service.url}/trade-api/v2`],
      ['catalog', 'count', '-o', 'json', '--url', service.url],
      // over undici: the pipelined pages (and every request through a proxy)
      ['catalog', 'products', '--all', '--limit', '2', '-o', 'ndjson', '--url', service.url],
    ];
    for (const args of runs) {
      const code = await cli.main(['node', 'trident', ...args], { io, env });
      if (code !== 0) throw new Error(`code-cache: trident ${args.join(' ')} exited ${code}`);
    }
  } finally {
    await service.close();
  }
}

// undici's parser puts V8 on its baseline WebAssembly compiler (src/core/wasm-tier.ts), and V8 refuses a cache
// made under other flags than its own: here the flags stay as they are (the parser tiers up in this process only).
process.getBuiltinModule('node:v8').setFlagsFromString = () => undefined;
const configDir = mkdtempSync(join(tmpdir(), 'trident-code-cache-'));
try {
  await exercise(configDir);
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
const files = [join(dist, 'cli.cjs'), ...readdirSync(join(dist, 'chunks')).map((name) => join(dist, 'chunks', name))];
for (const file of files) {
  if (scripts.has(file)) continue;
  const read = readModule(file);
  scripts.set(file, { bytes: read.bytes, script: compileModule(read, file) });
}
rmSync(join(dist, 'code-cache'), { recursive: true, force: true });
mkdirSync(join(dist, 'code-cache'), { recursive: true });
for (const [file, { bytes, script }] of scripts) writeFileSync(cacheFileFor(dist, file), encodeCache(bytes, script.createCachedData()));
