// `trident sandbox`: the three services on loopback until interrupted, and a `sandbox` profile to use them.
import { join } from 'node:path';
import { defineCommand, type GroupCommand, type OptionsOf } from '../command.js';
import type { Context } from '../context.js';
import type { Interrupts } from '../core/term/interrupts.js';
import { ExitCode, usageError } from '../core/errors.js';
import { SANDBOX_PROFILE, claimSandboxProfile, writeSandboxProfile } from './profile.js';
import { DEFAULT_SANDBOX_PORT, startSandbox, type RunningSandbox } from './start.js';
import { SANDBOX_TIME_USER } from './time/endpoints.js';

/** The time service's one user: the profile is logged in already, this is for logging in again. */
const TIME_LOGIN = `${SANDBOX_TIME_USER.email}, password ${SANDBOX_TIME_USER.password}`;

const define = (group: GroupCommand) => {
  return group
    .description(
      `Run local sandbox versions of the three services on loopback, and write a "${SANDBOX_PROFILE}" profile that reaches them. Runs until Ctrl-C, SIGTERM or SIGHUP, then frees its ports and exits 130. One sandbox per config dir owns the profile: a second one is refused (exit 2); give it a config dir of its own (TRIDENT_CONFIG_DIR).`,
    )
    .option('--dir <dir>', 'where the bootstrap key, CA certificate and catalog database go (default: <config dir>/sandbox)')
    .option('--host <host>', 'loopback address to listen on', '127.0.0.1')
    .option('--port <first>', 'first port: keys, then time (+1) and catalog (+2); 0 picks free ones', String(DEFAULT_SANDBOX_PORT))
    .option('--products <n>', 'size of the seeded demo catalog', '2000')
    .option('--catalog-db <file>', 'serve this catalog database (converter schema) instead of a seeded one');
};

export type SandboxFlags = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: SandboxFlags): Promise<number> {
  // Refused before anything starts when another sandbox owns the profile; taken later where the config dir is new.
  let release = claimSandboxProfile(ctx.configDir, false);
  const releaseOnExit = () => release?.();
  // An interrupt while seeding ends the process at once: the lock goes with it.
  process.once('exit', releaseOnExit);
  try {
    const sandbox = await start(ctx, opts);
    try {
      release ??= claimSandboxProfile(ctx.configDir, true);
      await writeSandboxProfile(ctx.configDir, sandbox, ctx.settings.get('time.userAgent'));
    } catch (error) {
      await sandbox.close();
      throw error;
    }
    // From the banner on, a signal stops the services in good order (before it, trident's own handler ends the
    // process, which frees the ports as well).
    const stopped = untilSignal(ctx.interrupts);
    ctx.io.stdout.write(banner(sandbox));
    const signal = await stopped;
    await sandbox.close();
    ctx.log.info(`sandbox stopped${signal === 'SIGINT' ? '' : ` (${signal})`}`);
    return ExitCode.interrupted;
  } finally {
    process.off('exit', releaseOnExit);
    releaseOnExit();
  }
}

async function start(ctx: Context, opts: SandboxFlags): Promise<RunningSandbox> {
  const seeding = ctx.progress('seeding products');
  try {
    return await startSandbox({
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

/** Until SIGINT (Ctrl-C), SIGTERM or SIGHUP (its terminal closed): which one came. */
function untilSignal(interrupts: Interrupts): Promise<NodeJS.Signals> {
  const giveBack = interrupts.handleHere();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const name of signals) process.off(name, stop);
      giveBack();
      resolve(signal);
    };
    for (const name of signals) process.on(name, stop);
  });
}

function wholeNumber(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw usageError(`invalid ${flag} "${value}": expected a whole number`);
  return Number(value);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident sandbox', 'trident sandbox --port 0 --products 20000', 'trident sandbox --catalog-db ./catalog.db'],
  after: `The "${SANDBOX_PROFILE}" profile is logged in to the time service. Its user, to log in again after \`time logout\`:\n  ${TIME_LOGIN}  (trident time login --profile ${SANDBOX_PROFILE})\n`,
  run,
});
