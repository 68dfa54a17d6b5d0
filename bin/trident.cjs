#!/usr/bin/env node
// `trident --version` runs thousands of times in scripts: answer it without loading the CLI. So is help printed
// to a pipe or a file (`trident keys list --help`): the build rendered it (scripts/render-help.mjs).
// This file is also the loader of dist/ (below), for Node's loader charges a command ~0.5 ms for each file it
// loads (resolve, package scope, read, compile without a cache). Required as a module (scripts/code-cache.mjs,
// the build's recorder), it runs nothing and exports the loader (the last lines).
// node:fs and node:path are loaded by Node's own start-up: taking them here costs nothing; node:vm and node:zlib are
// loaded only when the CLI is.
const fs = require('node:fs');
const path = require('node:path');

function launch() {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    writeAll(Buffer.from(`${JSON.parse(fs.readFileSync(require.resolve('../package.json'), 'utf8')).version}\n`));
  } else if (!printRenderedHelp(args)) {
    runCli();
  }
}

function runCli() {
  // dist/ is loaded with the V8 code cache the build made for it (createDistLoader below); TRIDENT_CODE_CACHE=0
  // loads it as Node does.
  const dist = path.resolve(__dirname, '../dist');
  const cli = process.env.TRIDENT_CODE_CACHE === '0' ? require(`${dist}/cli.cjs`) : createDistLoader(dist)(`${dist}/cli.cjs`);
  cli
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}

/** Prints the help the build rendered for exactly `trident [<group> [<command>]] --help|-h`, when stdout is no terminal. */
function printRenderedHelp(args) {
  const names = args.slice(0, -1);
  if (names.length > 2 || !['--help', '-h'].includes(args.at(-1)) || !names.every((name) => /^[a-z][a-z0-9-]*$/.test(name))) return false;
  let text;
  try {
    if (!stdoutIsNoTerminal()) return false;
    text = fs.readFileSync(`${__dirname}/../dist/help/${(names.length ? names : ['index']).join('/')}.txt`);
  } catch {
    return false; // no such command: the CLI says so
  }
  writeAll(text);
  return true;
}

/** A terminal has a width the help is wrapped to; checked without node:tty, which loads net and streams. */
function stdoutIsNoTerminal() {
  if (process.platform === 'win32') return false;
  const stdout = fs.fstatSync(1);
  if (!stdout.isCharacterDevice()) return true;
  const devNull = fs.statSync('/dev/null');
  return stdout.rdev === devNull.rdev && stdout.ino === devNull.ino;
}

/**
 * Written as the CLI would: a closed pipe is exit 0; a pipe that cannot take more now gets the rest through
 * process.stdout; any other failure takes the live path, which reports it.
 */
function writeAll(text) {
  let written = 0;
  try {
    while (written < text.length) written += fs.writeSync(1, text, written);
  } catch (error) {
    if (error.code === 'EPIPE') return;
    if (error.code === 'EAGAIN') process.stdout.write(text.subarray(written));
    else runCli();
  }
}

// ---- The loader of dist/ ----
// Loads dist/'s CommonJS files with V8's code cache (Node 20 has no module.enableCompileCache): compiling the
// bundle is the largest part of trident's start-up, and V8 can instead take the code it compiled at build time.
// The build (scripts/code-cache.mjs) leaves beside dist/ each file's cache (dist/code-cache/), headed by the CRC-32
// of the source it was made from and of the cache bytes. V8 itself checks only its version, its flags and the
// source's length, so a cache is handed to V8 only when both match; anything else (no cache, another Node, a
// file patched after the build, a corrupted cache, V8 rejecting it) compiles the file as Node would.
// CRC-32, not a cryptographic hash: the checks are against accidents (whoever can write dist/code-cache/ can
// write dist/ itself). node:zlib takes ~2 ms to load, but most of that is the stream modules node:http loads
// anyway: in a command it cost the same as a WebAssembly hash that loads nothing (measured, not kept).
// dist/ files are loaded here, not by Node's loader: a relative require() between them comes back here,
// anything else (node:*, better-sqlite3, jq-wasm) goes to this file's own require. That resolves a package name
// as it would from dist/ (bin/ and dist/ share the package's node_modules), and spares node:module (~0.5 ms).
const HEADER_BYTES = 8;

/**
 * Where the cache of one file under `dist` (an absolute, normalized path) lives; named by V8 version, so that
 * another Node never reads it. Built from strings: path.join and path.relative cost a command ~0.2 ms.
 */
function cacheFileFor(dist, file) {
  const { sep } = path;
  if (!file.startsWith(dist + sep)) return undefined;
  return `${dist}${sep}code-cache${sep}${file.slice(dist.length + 1).split(sep).join('__')}.${process.versions.v8}.bin`;
}

/** A cache file: the CRC-32 of the source file and that of the V8 data (4 bytes each, big-endian), then the V8 data. */
function encodeCache(sourceBytes, cachedData) {
  const { crc32 } = require('node:zlib');
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32BE(crc32(sourceBytes), 0);
  header.writeUInt32BE(crc32(cachedData), 4);
  return Buffer.concat([header, cachedData]);
}

function trustedCachedData(dist, file, sourceBytes) {
  const cacheFile = cacheFileFor(dist, file);
  if (!cacheFile) return undefined;
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.length <= HEADER_BYTES) return undefined;
  const { crc32 } = require('node:zlib');
  const cachedData = bytes.subarray(HEADER_BYTES);
  if (bytes.readUInt32BE(0) !== crc32(sourceBytes) || bytes.readUInt32BE(4) !== crc32(cachedData)) return undefined;
  return cachedData;
}

const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n})';

/**
 * A dist file: its bytes (what the cache's CRC covers) and its source as Node's CommonJS wrapper has it, read into
 * one buffer and decoded once. The wrapper joined to a source string would make V8 copy the whole source again to
 * compile it (~0.5% of `keys list`, with the CRC of bytes instead of a string re-encoded).
 */
function readModule(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.allocUnsafe(WRAPPER_HEAD.length + size + WRAPPER_TAIL.length);
    buffer.write(WRAPPER_HEAD, 0, 'latin1');
    let read = 0;
    for (let got = -1; read < size && got !== 0; read += got) got = fs.readSync(fd, buffer, WRAPPER_HEAD.length + read, size - read, null);
    const end = WRAPPER_HEAD.length + read;
    buffer.write(WRAPPER_TAIL, end, 'latin1');
    return { bytes: buffer.subarray(WRAPPER_HEAD.length, end), wrapped: buffer.toString('utf8', 0, end + WRAPPER_TAIL.length) };
  } finally {
    fs.closeSync(fd);
  }
}

/** A module read by readModule(), compiled (with `cachedData` when given; V8 may still refuse it). */
function compileModule({ wrapped }, filename, cachedData) {
  const { Script } = require('node:vm');
  return new Script(wrapped, { filename, cachedData });
}

/**
 * A loader for the CommonJS files under `dist`. `options.cachedData(file, sourceBytes)` gives the cache to try
 * (default: the trusted one of dist/code-cache/); `options.compiled(file, module, script)` is told of every file
 * compiled, as readModule() read it (the build's recorder). (With TRIDENT_CODE_CACHE=0 the launcher does not use
 * it at all.)
 */
function createDistLoader(dist, options = {}) {
  const cachedDataFor = options.cachedData ?? ((file, sourceBytes) => trustedCachedData(dist, file, sourceBytes));
  const modules = new Map();
  function load(file) {
    const known = modules.get(file);
    if (known) return known.exports;
    const module = { exports: {}, filename: file, id: file, loaded: false };
    modules.set(file, module);
    try {
      const read = readModule(file);
      const script = compileModule(read, file, cachedDataFor(file, read.bytes));
      options.compiled?.(file, read, script);
      const requireFromFile = (id) => (id.startsWith('./') || id.startsWith('../') ? load(path.resolve(path.dirname(file), id)) : require(id));
      script.runInThisContext({ displayErrors: true }).call(module.exports, module.exports, requireFromFile, module, file, path.dirname(file));
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

if (require.main === module) launch();
else module.exports = { cacheFileFor, compileModule, createDistLoader, encodeCache, readModule };
