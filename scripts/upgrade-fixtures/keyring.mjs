// The tests' own Secret Service (test/helpers/keyring-session.ts: gnome-keyring on a private D-Bus), bundled on
// the fly, so that the release stores its keys in a keyring as it would on a desktop and the entries can be read
// back for the fixture.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export async function startKeyring(repo, workDir) {
  const outfile = join(workDir, 'keyring-session.mjs');
  await build({
    entryPoints: [join(repo, 'test/helpers/keyring-session.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'warning',
  });
  const { startKeyringSession } = await import(pathToFileURL(outfile).href);
  return startKeyringSession();
}
