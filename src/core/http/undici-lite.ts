// The parts of undici the HTTP core uses. The package's index also loads fetch, WebSocket, caches, mocks
// and interceptors (about 1 MB of code) that trident never calls: measured, that is most of undici's
// start-up cost, paid by every command that makes a request.
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import request from 'undici/lib/api/api-request.js';

// What undici's index does to give every dispatcher its request() method (and only that one: the core
// never streams, pipes, upgrades or tunnels).
Object.assign(Dispatcher.prototype, { request });

export { Agent, Pool };
