// Preloaded by the bench (node -r) in front of trident: times every module load (require) and, at exit, writes to
// stderr one JSON line `{"trident-startup-profile": [{ module, selfMs, totalMs }, ...]}` in load order, self time
// being the load minus the loads it made itself. Builtins are listed as node:<name>; the bench only reads it.
const Module = require('node:module');
const { join, relative } = require('node:path');

const root = join(__dirname, '..');
const loads = [];
const stack = [];
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
  const start = process.hrtime.bigint();
  stack.push(0);
  try {
    return load.apply(this, arguments);
  } finally {
    const total = Number(process.hrtime.bigint() - start) / 1e6;
    const nested = stack.pop();
    if (stack.length) stack[stack.length - 1] += total;
    if (!known && total > 0.01) loads.push({ module: name, selfMs: total - nested, totalMs: total });
  }
};
process.on('exit', () => {
  process.stderr.write(`${JSON.stringify({ 'trident-startup-profile': loads })}\n`);
});
