// esbuild's code splitting leaves a dozen or more small chunks on every command's path, and Node pays for each
// file it loads (resolve, stat, realpath, read, compile: ~0.2-0.5 ms a file). This step gives every file that is
// loaded on its own (an entry point, or the target of an `import()`) the chunks it needs statically, as functions
// in a registry that all files of one build share: a chunk runs once, whichever file brought it. A file that is
// already loaded whenever an `import()` runs (its importer's static chunks) is not repeated in the target's file.
// Every chunk file stays in dist/ too, so a chunk missing from the registry is still found by a plain require.
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';

/**
 * @param {Map<string, string>} code CommonJS code by output path (relative to the output directory, "/" separators)
 * @param {Map<string, { static: string[], dynamic: string[] }>} imports each output's imports of other outputs
 * @param {string[]} entries the entry points' output paths
 * @returns {Map<string, string>} the code to write, by output path
 */
export function bundleChunks(code, imports, entries) {
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const next of imports.get(file).static) closure(next, seen);
    return seen;
  };
  const dynamicTargets = new Set([...imports.values()].flatMap((edges) => edges.dynamic));
  const standalone = [...code.keys()].filter((file) => entries.includes(file) || dynamicTargets.has(file));
  const intersect = (sets) => new Set([...(sets[0] ?? [])].filter((file) => sets.every((set) => set.has(file))));
  // What is surely loaded when a dynamic target runs: what is loaded with every file that imports it.
  const before = new Map(entries.map((entry) => [entry, new Set()]));
  const loadedBefore = (target) => {
    if (!before.has(target)) {
      before.set(target, new Set()); // an import() cycle: assume nothing
      const importers = [...code.keys()].filter((file) => imports.get(file).dynamic.includes(target));
      before.set(target, intersect(importers.map(loadedWith)));
    }
    return before.get(target);
  };
  const loadedWith = (chunk) =>
    intersect(standalone.filter((root) => closure(root).has(chunk)).map((root) => new Set([...closure(root), ...loadedBefore(root)])));

  const registry = `Symbol.for("trident.chunks.${createHash('sha256').update([...code.values()].join('\0')).digest('hex').slice(0, 16)}")`;
  const prelude =
    `var __chunks=globalThis[${registry}]||(globalThis[${registry}]={defined:{},loaded:{},load(name,fallback){` +
    'const chunks=this,known=chunks.loaded[name];if(known)return known.exports;const define=chunks.defined[name];if(!define)return fallback();' +
    'const module=chunks.loaded[name]={exports:{}};try{define.call(module.exports,module,module.exports)}catch(error){delete chunks.loaded[name];throw error}' +
    'return module.exports}});';

  const out = new Map();
  for (const file of code.keys()) {
    const members = standalone.includes(file) ? [...closure(file)].filter((member) => member === file || !loadedBefore(file).has(member)) : [file];
    const definitions = members.map((member) => `__chunks.defined[${JSON.stringify(member)}]||(__chunks.defined[${JSON.stringify(member)}]=function(module,exports){${linkRequires(code.get(member), member, file, code)}\n});`);
    out.set(file, `${prelude}${definitions.join('\n')}\nmodule.exports=__chunks.load(${JSON.stringify(file)});\n`);
  }
  return out;
}

/** A chunk's `require("./other.cjs")` goes through the registry, falling back to the file beside the one it is written into. */
function linkRequires(text, member, host, code) {
  return text.replace(/\brequire\("(\.\.?\/[^"]+\.cjs)"\)/g, (_match, request) => {
    const target = join(dirname(member), request);
    if (!code.has(target)) throw new Error(`bundle-chunks: ${member} requires ${request}, which is no output of the build`);
    let fromHost = relative(dirname(host), target);
    if (!fromHost.startsWith('.')) fromHost = `./${fromHost}`;
    return `__chunks.load(${JSON.stringify(target)},()=>require(${JSON.stringify(fromHost)}))`;
  });
}
