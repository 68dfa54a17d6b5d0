// `trident sandbox`: the three services on loopback until interrupted, and a `sandbox` profile to use them.
import type { Command } from 'commander';
import { join } from 'node:path';
import { examples, type Binder } from '../command.js';
import type { Context } from '../context.js';
import { usageError } from '../core/errors.js';
import { handleInterruptsHere } from '../core/term/interrupts.js';
import { SANDBOX_PROFILE, writeSandboxProfile } from './profile.js';
import { DEFAULT_SANDBOX_PORT, startSandbox, type RunningSandbox } from './start.js';
import { SANDBOX_TIME_USER } from './time/endpoints.js';

/** The time service's one user: the profile is logged in already, this is for logging in again. */
const TIME_LOGIN = `${SANDBOX_TIME_USER.email}, password ${SANDBOX_TIME_USER.password}`;

interface SandboxFlags {
  dir?: string;
  host: string;
  port: string;
  products: string;
  catalogDb?: string;
}

export async function run(ctx: Context, opts: SandboxFlags): Promise<number> {
  const seeding = ctx.progress('seeding products');
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      dir: opts.dir ?? join(ctx.configDir, 'sandbox'),
      host: opts.host,
      port: wholeNumber(opts.port, '--port'),
      products: wholeNumber(opts.products, '--products'),
      catalogDb: opts.catalogDb,
      onSeeding: seeding && ((done, total) => (done < total ? seeding.update(done, total) : seeding.finishing('building the indexes'))),
    });
  } finally {
    seeding?.end();
  }
  try {
    await writeSandboxProfile(ctx.configDir, sandbox, ctx.settings.get('time.userAgent'));
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  ctx.io.stdout.write(banner(sandbox));
  await untilSignal();
  await sandbox.close();
  ctx.log.info('sandbox stopped');
  return 0;
}

function banner(sandbox: RunningSandbox): string {
  return `trident sandbox is running (Ctrl-C to stop)

  keys      ${sandbox.keys.url}
  time      ${sandbox.time.url}
  catalog   ${sandbox.catalog.url}
  files     ${sandbox.dir}  (bootstrap key, CA certificate, catalog database)
  profile   "${SANDBOX_PROFILE}" (trident config list --profile ${SANDBOX_PROFILE})
            to make it the default: trident config use ${SANDBOX_PROFILE}
  time user ${TIME_LOGIN} (logged in already; after time logout: trident time login --profile ${SANDBOX_PROFILE})

Try, in another terminal:
  trident keys list --profile ${SANDBOX_PROFILE}
  trident time projects --status all --profile ${SANDBOX_PROFILE}
  trident catalog count --store fixprice --region москва --profile ${SANDBOX_PROFILE}

`;
}

function untilSignal(): Promise<void> {
  const giveBack = handleInterruptsHere();
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      giveBack();
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function wholeNumber(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw usageError(`invalid ${flag} "${value}": expected a whole number`);
  return Number(value);
}

export function register(group: Command, bind: Binder): void {
  group
    .option('--dir <dir>', 'where the bootstrap key, CA certificate and catalog database go (default: <config dir>/sandbox)')
    .option('--host <host>', 'loopback address to listen on', '127.0.0.1')
    .option('--port <first>', 'first port: keys, then time (+1) and catalog (+2); 0 picks free ones', String(DEFAULT_SANDBOX_PORT))
    .option('--products <n>', 'size of the seeded demo catalog', '2000')
    .option('--catalog-db <file>', 'serve this catalog database (converter schema) instead of a seeded one')
    .action(bind(run));
  examples(group, ['trident sandbox', 'trident sandbox --port 0 --products 20000', 'trident sandbox --catalog-db ./catalog.db']);
  group.addHelpText(
    'after',
    `The "${SANDBOX_PROFILE}" profile is logged in to the time service. Its user, to log in again after \`time logout\`:\n  ${TIME_LOGIN}  (trident time login --profile ${SANDBOX_PROFILE})\n`,
  );
}
