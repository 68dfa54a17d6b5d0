// Loads dist/'s CommonJS files with V8's code cache (Node 20 has no module.enableCompileCache): compiling the
// bundle is the largest part of trident's start-up, and V8 can instead take the code it compiled at build time.
// The build (scripts/code-cache.cjs) leaves beside dist/ each file's cache (dist/code-cache/), headed by the CRC-32
// of the source it was made from and of the cache bytes. V8 itself checks only its version, its flags and the
// source's length, so a cache is handed to V8 only when both match; anything else (no cache, another Node, a
// file patched after the build, a corrupted cache, V8 rejecting it) compiles the file as Node would.
// CRC-32, not a cryptographic hash: the checks are against accidents (whoever can write dist/code-cache/ can
// write dist/ itself). node:zlib takes ~2 ms to load, but most of that is the stream modules node:http loads
// anyway: in a command it cost the same as a WebAssembly hash that loads nothing (measured, not kept).
// dist/ files are loaded here, not by Node's loader: a relative require() between them comes back here,
// anything else (node:*, better-sqlite3, jq-wasm) goes to this file's own require. That resolves a package name
// as it would from dist/ (bin/ and dist/ share the package's node_modules), and spares node:module (~0.5 ms).
const { readFileSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');
const { Script } = require('node:vm');

const HEADER_BYTES = 8;

/** Where the cache of one dist file lives; named by V8 version, so that another Node never reads it. */
function cacheFileFor(dist, file) {
  return join(dist, 'code-cache', `${relative(dist, file).split(sep).join('__')}.${process.versions.v8}.bin`);
}

/** A cache file: the CRC-32 of the source and that of the V8 data (4 bytes each, big-endian), then the V8 data. */
function encodeCache(source, cachedData) {
  const { crc32 } = require('node:zlib');
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(crc32(source), 0);
  header.writeUInt32BE(crc32(cachedData), 4);
  return Buffer.concat([header, cachedData]);
}

function trustedCachedData(dist, file, source) {
  let bytes;
  try {
    bytes = readFileSync(cacheFileFor(dist, file));
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER_BYTES) return undefined;
  const { crc32 } = require('node:zlib');
  const cachedData = bytes.subarray(HEADER_BYTES);
  if (bytes.readUInt32BE(0) !== crc32(source) || bytes.readUInt32BE(4) !== crc32(cachedData)) return undefined;
  return cachedData;
}

/** One file's source as Node's CommonJS wrapper has it, compiled (with `cachedData` when given; V8 may still refuse it). */
function compileModule(source, filename, cachedData) {
  return new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename, cachedData });
}

/**
 * A loader for the CommonJS files under `dist`. `options.cachedData(file, source)` gives the cache to try
 * (default: the trusted one of dist/code-cache/); `options.compiled(file, source, script)` is told of every file
 * compiled (the build's recorder). (With TRIDENT_CODE_CACHE=0 bin/trident.cjs does not use it at all.)
 */
function createDistLoader(dist, options = {}) {
  const cachedDataFor = options.cachedData ?? ((file, source) => trustedCachedData(dist, file, source));
  const modules = new Map();
  function load(file) {
    const known = modules.get(file);
    if (known) return known.exports;
    const module = { exports: {}, filename: file, id: file, loaded: false };
    modules.set(file, module);
    try {
      const source = readFileSync(file, 'utf8');
      const script = compileModule(source, file, cachedDataFor(file, source));
      options.compiled?.(file, source, script);
      const requireFromFile = (id) => (id.startsWith('./') || id.startsWith('../') ? load(resolve(dirname(file), id)) : require(id));
      script.runInThisContext({ displayErrors: true }).call(module.exports, module.exports, requireFromFile, module, file, dirname(file));
    } catch (error) {
      // As Node's loader does: a file that failed to load is not kept half-made.
      modules.delete(file);
      throw error;
    }
    module.loaded = true;
    return module.exports;
  }
  return load;
}

module.exports = { cacheFileFor, compileModule, createDistLoader, encodeCache };
