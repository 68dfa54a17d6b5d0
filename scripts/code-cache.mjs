// Build step (scripts/build.mjs runs it in a child process with Node's default flags: V8 refuses a cache made
// under other flags): loads a built dist/ through bin/dist-loader.cjs, runs what most commands run — defining
// every command of every group, and two requests to a stand-in service on loopback (`keys list`, `catalog count`:
// context, settings, key file, signing, the HTTP core, the output) — then writes each file's V8 code cache,
// holding the functions compiled meanwhile, to <dist>/code-cache/. Every other dist file is compiled, not run.
// Help is not rendered: the functions only help runs would be in the cache every command reads back, costing
// `keys list` ~2% of its time, and live help (a terminal) measured no faster with them than compiling them.
// Nothing here sets a V8 flag: undici and jq (which set --liftoff-only) are not run.
// Usage: node scripts/code-cache.mjs <dist directory>
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fullProgram } from './render-help.mjs';

const { cacheFileFor, compileModule, createDistLoader, encodeCache } = createRequire(import.meta.url)('../bin/dist-loader.cjs');

const dist = resolve(process.argv[2] ?? 'dist');
const scripts = new Map();
const load = createDistLoader(dist, {
  cachedData: () => undefined,
  compiled: (file, source, script) => scripts.set(file, { source, script }),
});

const quiet = { write: () => true, isTTY: false, on: () => quiet, once: () => quiet, off: () => quiet };
const io = { stdout: quiet, stderr: quiet };

/** A stand-in for the keys and catalog services: an empty key list, a count. */
async function standInService() {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(request.url.includes('/api_keys') ? '{"api_keys":[]}' : '{"products_count":0,"stores":null,"regions":null}');
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
    ];
    for (const args of runs) {
      const code = await cli.main(['node', 'trident', ...args], { io, env });
      if (code !== 0) throw new Error(`code-cache: trident ${args.join(' ')} exited ${code}`);
    }
  } finally {
    await service.close();
  }
}

const configDir = mkdtempSync(join(tmpdir(), 'trident-code-cache-'));
try {
  await exercise(configDir);
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
const files = [join(dist, 'cli.cjs'), ...readdirSync(join(dist, 'chunks')).map((name) => join(dist, 'chunks', name))];
for (const file of files) {
  if (scripts.has(file)) continue;
  const source = readFileSync(file, 'utf8');
  scripts.set(file, { source, script: compileModule(source, file) });
}
rmSync(join(dist, 'code-cache'), { recursive: true, force: true });
mkdirSync(join(dist, 'code-cache'), { recursive: true });
for (const [file, { source, script }] of scripts) writeFileSync(cacheFileFor(dist, file), encodeCache(source, script.createCachedData()));
