// What undici's HTTP/2 client gets for `require('node:http2')` in trident's bundle (scripts/build.mjs).
// undici loads node:http2 (and with it tls) at start-up only to read a few constants; the HTTP/2 client itself
// runs only when a server negotiates h2 with allowH2 on, which trident never sets. Loading http2 costs ~8 ms
// per command, so the constants are given here (a test compares them with node:http2's) and the module
// itself is loaded only if anything else of it is ever used.
'use strict';

const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

module.exports = require('./undici-stand-in.cjs')('node:http2', { constants });
