// What the undici stubs share: a stand-in for a Node built-in that answers what it knows itself and loads the
// real module (once, by require's cache) only when anything else of it is asked for.
'use strict';

module.exports = function standIn(builtin, known) {
  return new Proxy(known, { get: (target, key) => (Object.hasOwn(target, key) ? target[key] : require(builtin)[key]) });
};
