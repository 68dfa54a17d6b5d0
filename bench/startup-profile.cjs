// Preloaded by the bench (node -r) in front of trident: times every module load (require) and, at exit, writes to
// stderr one JSON line `{"trident-startup-profile": [{ module, selfMs, totalMs }, ...]}` in load order, self time
// being the load minus the loads it made itself. Builtins are listed as node:<name>; the bench only reads it.
// A dist file carries several chunks (scripts/bundle-chunks.mjs) run through a registry shared by the files of one
// build: each chunk's first run is timed too, as dist/chunks/<name>, nested in the file that brought it.
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const loads = [];
const stack = [];
/** The dist files being loaded, innermost last. */
const files = [];

function timed(name, record, work) {
  const start = process.hrtime.bigint();
  stack.push(0);
  try {
    return work();
  } finally {
    const total = Number(process.hrtime.bigint() - start) / 1e6;
    const nested = stack.pop();
    if (stack.length) stack[stack.length - 1] += total;
    if (record && total > 0.01) loads.push({ module: name, selfMs: total - nested, totalMs: total });
  }
}

const load = Module._load;
Module._load = function timedLoad(request, parent, isMain) {
  const builtin = Module.isBuiltin(request);
  let filename;
  try {
    filename = builtin ? undefined : Module._resolveFilename(request, parent, isMain);
  } catch {
    filename = undefined;
  }
  const name = builtin ? `node:${request.replace(/^node:/, '')}` : filename ? relative(root, filename) : request;
  const known = filename !== undefined && Boolean(Module._cache[filename]);
  if (known || !filename?.startsWith(dist)) return timed(name, !known, () => load.apply(this, arguments));
  watchRegistry(filename);
  files.push(relative(dist, filename));
  try {
    return timed(name, true, () => load.apply(this, arguments));
  } finally {
    files.pop();
  }
};

/** Times the chunks the registry of the build `file` belongs to runs, from before the file creates it. */
const watched = new Set();
function watchRegistry(file) {
  const symbolName = /Symbol\.for\("(trident\.chunks\.[0-9a-f]+)"\)/.exec(readFileSync(file, 'utf8'))?.[1];
  if (!symbolName || watched.has(symbolName)) return;
  watched.add(symbolName);
  const key = Symbol.for(symbolName);
  let registry;
  Object.defineProperty(globalThis, key, {
    configurable: true,
    get: () => registry,
    set: (value) => {
      registry = value;
      const loadChunk = value.load;
      value.load = function timedChunk(name, fallback) {
        // Not a chunk run already, nor one in no loaded file (a require, timed above), nor a file's own (its load).
        const record = !value.loaded[name] && Boolean(value.defined[name]) && name !== files.at(-1);
        return timed(`dist/${name}`, record, () => loadChunk.call(this, name, fallback));
      };
    },
  });
}

process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ 'trident-startup-profile': loads })}\n`);
});
