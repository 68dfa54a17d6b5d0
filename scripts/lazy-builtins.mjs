// commander loads node:child_process at start-up for executable subcommands, which trident never has, and
// `keys rotate` needs it only to run a hook; node:crypto is needed only by what signs, makes or reads keys and
// secrets; node:os only when there is no usable HOME to find the settings in. Loading them (child_process brings
// net, dgram, streams) costs ~3 ms each (os ~0.4 ms), so every importer in the bundle gets a stand-in whose exports
// are getters of the real module's, loading it on first use.
import { createRequire } from 'node:module';

export const LAZY_BUILTINS = ['child_process', 'crypto', 'os'];

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`) }, (args) =>
      // (the stand-in's own require of the real module stays a require)
      args.namespace === 'lazy-builtin' ? undefined : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({ contents: lazyBuiltinStandIn(args.path), loader: 'js' }));
  },
};

/** The stand-in's CommonJS source: the export names are the real module's, read here at build time. */
export function lazyBuiltinStandIn(name) {
  const names = Object.keys(createRequire(import.meta.url)(`node:${name}`));
  return `let real;const load=()=>real??=require("node:${name}");for(const name of ${JSON.stringify(names)})Object.defineProperty(exports,name,{enumerable:true,get:()=>load()[name]});`;
}

/**
 * An ES module importing a CommonJS one gets from esbuild a copy of its exports (`__toESM`: a getter per name,
 * made on every import: four copies of node:crypto's 73 for `keys list`, ~0.3 ms and ~200 KB to collect). A
 * stand-in already has the shape a named import reads, so in the CommonJS `code` of a dist file its importers
 * take it as it is; one that reads `.default` keeps its copy.
 */
export function importStandInsDirectly(code) {
  const copy = new RegExp(`([\\w$]+)=\\(0,[\\w$]+\\.__toESM\\)\\((\\(0,[\\w$]+\\.require_(?:${LAZY_BUILTINS.join('|')})\\)\\(\\)),1\\)`, 'g');
  return code.replace(copy, (whole, name, standIn) => (code.includes(`${name}.default`) ? whole : `${name}=${standIn}`));
}
