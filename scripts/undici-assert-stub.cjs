// What undici gets for `require('node:assert')` in trident's bundle (scripts/build.mjs). undici only calls
// assert(value) to check its own invariants; node:assert itself (~1 ms at start-up) is loaded when one fails,
// so the error is node's own AssertionError, or when anything else of the module is used.
'use strict';

function assert(value, message) {
  if (!value) require('node:assert')(value, message);
}

module.exports = require('./undici-stand-in.cjs')('node:assert', assert);
