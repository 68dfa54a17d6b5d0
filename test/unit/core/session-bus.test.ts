import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { busAnswers, busSocket } from '../../../src/core/credentials/session-bus.js';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A unix socket whose peer does what `onConnection` does. */
async function peer(onConnection: (socket: Socket) => void): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'trident-bus-')), 'bus');
  const server = createServer(onConnection);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return path;
}

describe('the session bus check before the keyring library is called', () => {
  it('finds the socket of the first unix address', () => {
    expect(busSocket('unix:path=/run/user/1000/bus')).toBe('/run/user/1000/bus');
    expect(busSocket('unix:path=/tmp/dbus-x,guid=0123')).toBe('/tmp/dbus-x');
    expect(busSocket('tcp:host=localhost,port=1;unix:abstract=/tmp/dbus-Ab,guid=1')).toBe('\0/tmp/dbus-Ab');
    expect(busSocket('unix:path=/tmp/with%20space')).toBe('/tmp/with space');
    expect(busSocket('tcp:host=localhost,port=1')).toBeUndefined();
    expect(busSocket('')).toBeUndefined();
  });

  it('is true once the bus answers the handshake, which it is sent', async () => {
    let said = '';
    const path = await peer((socket) =>
      socket.on('data', (data) => {
        said += data.toString('latin1');
        socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
      }),
    );
    expect(await busAnswers(path, 5000)).toBe(true);
    expect(said).toMatch(/^\0AUTH EXTERNAL [0-9a-f]+\r\n$/);
  });

  it('is false for a peer that never answers, by the deadline, and for one that is not there or hangs up', async () => {
    const silent = await peer(() => undefined);
    const started = process.hrtime.bigint();
    expect(await busAnswers(silent, 200)).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeGreaterThanOrEqual(190);
    expect(await busAnswers(join(mkdtempSync(join(tmpdir(), 'trident-bus-')), 'none'), 5000)).toBe(false);
    const rude = await peer((socket) => socket.destroy());
    expect(await busAnswers(rude, 5000)).toBe(false);
  });
});
