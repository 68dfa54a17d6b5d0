// The sandbox's catalog on node:sqlite against node-sqlite3-wasm, on the running Node: seeding a catalog, then every
// page of /products (100 a page) and /products/count, over the sandbox's HTTP as the CLI reaches them.
//   node bench/sqlite-backends.mjs [products]           the backend the sandbox picks on this Node
//   node bench/sqlite-backends.mjs [products] --wasm    node:sqlite hidden, so node-sqlite3-wasm
// Needs dist/ (npm run build). Prints one JSON line: medians of 5 walks and of 5 rounds of 40 counts, in ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './sandbox.mjs';

const products = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5000);
const wasm = process.argv.includes('--wasm');
if (wasm) {
  const builtin = process.getBuiltinModule;
  process.getBuiltinModule = (id) => (id === 'node:sqlite' ? undefined : builtin.call(process, id));
}
const { seedCatalogDb, startCatalogSandbox } = createRequire(import.meta.url)(join(ROOT, 'dist/sandbox-api.cjs'));

const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const dir = mkdtempSync(join(tmpdir(), 'trident-sqlite-bench-'));
const file = join(dir, 'catalog.db');
const seedMs = await timed(() => seedCatalogDb(file, { products, now: new Date('2026-11-01T00:00:00Z') }));
const catalog = await startCatalogSandbox({ dbFile: file, port: 0 });
const walk = async () => {
  for (let offset = 0, total = Infinity; offset < total; offset += 100) {
    const answer = await (await fetch(`${catalog.url}/products?limit=100&offset=${offset}`)).json();
    total = answer.meta.total;
  }
};
const counts = async () => {
  for (let i = 0; i < 40; i++) {
    const answer = await fetch(`${catalog.url}/products/count?store=fixprice`);
    if (answer.status !== 200) throw new Error(`count: HTTP ${answer.status}`);
    await answer.text();
  }
};
const walks = [];
const countRounds = [];
for (let round = 0; round < 5; round++) {
  walks.push(await timed(walk));
  countRounds.push(await timed(counts));
}
await catalog.close();
rmSync(dir, { recursive: true, force: true });
const [major, minor] = process.versions.node.split('.').map(Number);
const backend = !wasm && (major > 22 || (major === 22 && minor >= 16)) ? 'node:sqlite' : 'node-sqlite3-wasm';
console.log(
  JSON.stringify({
    node: process.version,
    backend,
    products,
    seedMs: Math.round(seedMs),
    walkMs: Math.round(median(walks)),
    count40Ms: Math.round(median(countRounds)),
  }),
);
