// A real Secret Service for the bench: gnome-keyring-daemon, unlocked, on a D-Bus session bus of its own, its
// keyrings in a temporary directory. Undefined when its tools are not installed (Debian: dbus-daemon, gnome-keyring).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './sandbox.mjs';

export async function startBenchKeyring() {
  if (['dbus-run-session', 'gnome-keyring-daemon'].some((tool) => spawnSync('which', [tool]).status !== 0)) return undefined;
  const home = mkdtempSync(join(tmpdir(), 'trident-bench-keyring-'));
  const script =
    'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null && echo "BUS=$DBUS_SESSION_BUS_ADDRESS" && exec sleep 3600';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
    env: { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: home, XDG_RUNTIME_DIR: home },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  let text = '';
  for await (const chunk of child.stdout) {
    text += chunk;
    if (/BUS=\S+\n/.test(text)) break;
  }
  const address = /BUS=(\S+)/.exec(text)[1];
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: address },
    /** Stores `secret` as trident stores a private key: service trident, the account given. */
    put(account, secret) {
      const previous = process.env.DBUS_SESSION_BUS_ADDRESS;
      process.env.DBUS_SESSION_BUS_ADDRESS = address;
      const { Entry } = createRequire(join(ROOT, 'package.json'))('@napi-rs/keyring');
      new Entry('trident', account, { linux: { store: 'secret-service' } }).setPassword(secret);
      process.env.DBUS_SESSION_BUS_ADDRESS = previous;
    },
    stop() {
      process.kill(-child.pid, 'SIGTERM');
      rmSync(home, { recursive: true, force: true });
    },
  };
}
