// A case's config dir (and --out files) as the release left them, with what ties them to this one run made
// portable: the case's directory becomes @ROOT@, the sandbox's URL @KEYS_URL@, and the pid a pending record or a
// lock names @DEAD_PID@ (a test puts in one that has surely ended: on another machine the release's pid may be a
// live process, which would keep the record from being settled).
// Beside them, service.json: the keys the sandbox held (ids, names, scopes, created_ts, public halves) and the
// case's roles.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const PLACEHOLDERS = { root: '@ROOT@', url: '@KEYS_URL@', pid: '@DEAD_PID@' };

function* filesUnder(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

function portable(text, bench, path = '') {
  const out = text.split(bench.sandbox.url).join(PLACEHOLDERS.url).split(bench.root).join(PLACEHOLDERS.root);
  if (relative(bench.configDir, path).startsWith('pending/')) return out.replace(/"pid": \d+/g, `"pid": ${PLACEHOLDERS.pid}`);
  // A lock names its holder as "<pid> <start time>".
  if (path.endsWith('.lock')) return out.replace(/^\d+/, PLACEHOLDERS.pid);
  return out;
}

export function writeFixture(dest, bench, meta) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const dir of ['config', 'out']) {
    const from = join(bench.root, dir);
    if (!existsSync(from)) continue;
    cpSync(from, join(dest, dir), { recursive: true });
    for (const path of filesUnder(join(dest, dir)))
      writeFileSync(path, portable(readFileSync(path, 'utf8'), bench, join(from, relative(join(dest, dir), path))));
  }
  const { control, bootstrap } = bench.sandbox;
  const keys = control
    .listKeys()
    .filter((key) => key.api_key !== bootstrap.keyId)
    .map((key) => ({ ...key, public_key_pem: control.publicKeyPem(key.api_key) }));
  // A keyring's entries are not in the config dir: kept beside it, account and secret (a test key's PEM).
  if (bench.keyring) writeFileSync(join(dest, 'keyring.json'), `${JSON.stringify(bench.keyring.entries(), null, 2)}\n`);
  writeFileSync(join(dest, 'service.json'), portable(`${JSON.stringify({ ...meta, keys }, null, 2)}\n`, bench));
}
