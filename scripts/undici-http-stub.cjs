// What undici gets for `require('node:http')` in trident's bundle (scripts/build.mjs). undici reads two
// things of node:http when it loads: maxHeaderSize (the default limit of answer headers) and IncomingMessage
// (to unhook the socket of a node:http answer handed to it as a request body). Loading node:http costs
// ~1.5 ms per command; trident never sends a node:http answer as a body, and the header limit is node's
// default unless --max-http-header-size is set, in which case node:http itself is asked.
'use strict';

const NODE_DEFAULT_MAX_HEADER_SIZE = 16 * 1024;
const customHeaderSize = () => [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('max-http-header-size'));

class IncomingMessageNeverSentByTrident {}

const known = {
  get maxHeaderSize() {
    return customHeaderSize() ? require('node:http').maxHeaderSize : NODE_DEFAULT_MAX_HEADER_SIZE;
  },
  IncomingMessage: IncomingMessageNeverSentByTrident,
};

module.exports = require('./undici-stand-in.cjs')('node:http', known);
