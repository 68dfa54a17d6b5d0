// npm run demo: a tour of trident on the embedded sandbox. Starts the three services in this process with
// a temporary config dir, runs the real CLI against them, explains each step in one line, cleans up.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { startSandbox, writeSandboxProfile } = await import(join(root, 'dist/sandbox-api.cjs'));

const home = mkdtempSync(join(tmpdir(), 'trident-demo-'));
const configDir = join(home, 'config');
// Bold on a terminal that can show it (not TERM=dumb), for the demo's lines and the CLI's tables alike.
const capable = Boolean(process.stdout.isTTY) && process.env.TERM !== 'dumb';
const env = { ...process.env, TRIDENT_CONFIG_DIR: configDir, TRIDENT_PROFILE: 'sandbox', FORCE_COLOR: capable ? '1' : '0' };
delete env.CI;
const bold = (text) => (capable ? `\u001b[1m${text}\u001b[22m` : text);
const started = Date.now();

// The services live in this process: the CLI must run asynchronously so that they can answer it.
const run = promisify(execFile);

/** An argument as a shell reads it back: quoted unless it is plain (`--name 'Café Zürich AG'`). */
const shellQuote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

async function trident(args, { capture = false } = {}) {
  if (!capture) console.log(`\n${bold(`$ trident ${args.map(shellQuote).join(' ')}`)}`);
  let stdout;
  let stderr;
  try {
    ({ stdout, stderr } = await run(process.execPath, [join(root, 'bin/trident.cjs'), ...args], { env, encoding: 'utf8' }));
  } catch (error) {
    throw new Error(`the demo stopped: "trident ${args.join(' ')}" exited ${error.code}\n${error.stderr}`, { cause: error });
  }
  process.stderr.write(stderr);
  if (!capture) process.stdout.write(stdout);
  return stdout;
}

function step(text) {
  console.log(`\n${bold('──')} ${text}`);
}

const sandbox = await startSandbox({ dir: join(home, 'sandbox'), port: 0, products: 500 });
try {
  await writeSandboxProfile(configDir, sandbox);
  console.log(`${bold('trident demo')}: three sandbox services on 127.0.0.1, a "sandbox" profile in ${configDir}`);

  step('Keys: list the API keys of the account (requests are signed with RSA-PSS).');
  await trident(['keys', 'list', '-o', 'table']);

  step('Generate a key on the service: its private half is stored 0600 before anything is printed, never shown.');
  const generated = JSON.parse(await trident(['keys', 'generate', '--name', 'demo-ci', '--scopes', 'read', '-o', 'json']));

  step("Rotate the profile's key: new key, switch, verify, delete the old one — safe to resume if interrupted.");
  await trident(['keys', 'rotate', '--yes', '-o', 'table']);

  step('Delete the key generated above (scripts pass --yes; at a terminal trident asks).');
  await trident(['keys', 'delete', generated.api_key, '--yes', '-o', 'table']);

  step("Time tracker: projects over HTTPS with a token bound to trident's stable User-Agent.");
  await trident(['time', 'projects', '--status', 'all', '-o', 'table']);

  step('Rename a customer (batches work too: time customer-update --from-csv file.csv).');
  await trident(['time', 'customer-update', '4', '--name', 'Café Zürich AG', '-o', 'table']);

  step('Catalog: how many products, in one store and region, and across all three stores.');
  await trident(['catalog', 'count', '--store', 'fixprice', '--region', 'москва', '-o', 'table']);
  await trident(['catalog', 'common-count', '--scope', 'stores', '-o', 'table']);

  step('Price dynamics of one product over the last 90 days, drawn in the terminal (gaps stay gaps).');
  // One page of a list in -o json is {"items", "meta"}.
  const [product] = JSON.parse(
    await trident(['catalog', 'products', '--limit', '1', '--sort', 'price_desc', '-o', 'json'], { capture: true }),
  ).items;
  const [source] = JSON.parse(
    await trident(['catalog', 'sources', product.canonical_product_id, '--limit', '1', '-o', 'json'], { capture: true }),
  ).items;
  await trident([
    'catalog',
    'dynamics',
    product.canonical_product_id,
    '--store',
    source.parser_name,
    '--source-id',
    String(source.source_id),
    '--field',
    'price',
    '--from',
    '-90d',
    '--interval',
    '1d',
    '--chart',
    '-o',
    'table',
  ]);

  console.log(`\n${bold('Done')} in ${((Date.now() - started) / 1000).toFixed(1)} s. Run your own sandbox with: trident sandbox`);
} catch (error) {
  console.error(`\n${error.message}`);
  process.exitCode = 1;
} finally {
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
}
