// Preloaded (node -r) in front of a copy of bin/trident.cjs: records every file its loader of dist/ compiles, whether
// it was handed cached data and whether V8 accepted it, and writes them at exit to CODE_CACHE_PROBE_OUT (JSON).
const vm = require('node:vm');
const { writeFileSync } = require('node:fs');
const { basename } = require('node:path');

const seen = [];
const Script = vm.Script;
vm.Script = class ProbedScript extends Script {
  constructor(source, options = {}) {
    super(source, options);
    seen.push({ file: basename(options.filename), cached: Boolean(options.cachedData), rejected: Boolean(options.cachedData) && this.cachedDataRejected });
  }
};
process.on('exit', () => writeFileSync(process.env.CODE_CACHE_PROBE_OUT, JSON.stringify(seen)));
