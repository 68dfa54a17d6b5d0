// undici's proxy support (with its SOCKS5 client), imported by client.ts only when HTTPS_PROXY or HTTP_PROXY
// is set: every other command is spared loading it.
import connect from 'undici/lib/api/api-connect.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

// The proxy agent opens its tunnels with the dispatcher's connect() (CONNECT), which undici's index would
// have added along with request() (see undici-lite.ts).
Object.assign(Dispatcher.prototype, { connect });

export { EnvHttpProxyAgent };
