import { Option } from '@commander-js/extra-typings';
import { ageText } from '../../core/term/times.js';
import { reportError } from '../../core/term/report-error.js';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { cancelledError, usageError } from '../../core/errors.js';
import { addConnectionOptions, keysBaseUrl } from '../connection.js';
import { keyAges, parseAge, recordKeyInUse } from '../key-ages.js';
import { Rotation, type RotationResult } from '../rotation/machine.js';
import { liveDeps } from '../rotation/deps.js';
import { DEFAULT_HOOK_TIMEOUT_S } from '../rotation/hooks.js';
import { describeOwner, readJournal, type Journal } from '../rotation/journal.js';
import { lockRotation } from '../rotation/lock.js';
import { printNewPlan, printPendingPlan, printReport, rotationReport } from '../rotation/report.js';
import { beginRotation, findRotation, lookUpRotation, planRotation, type RotationPlan } from '../rotation/start.js';

async function confirm(ctx: Context, question: string): Promise<void> {
  if (!(await ctx.prompter.confirm(question))) throw cancelledError('cancelled: nothing changed');
}

async function report(ctx: Context, result: RotationResult): Promise<number> {
  await printReport(ctx, rotationReport(result));
  if (result.problem) reportError(result.problem, ctx.io.stderr, ctx.log.debugEnabled);
  return result.exitCode;
}

function hookTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!(seconds > 0) || !Number.isFinite(seconds)) throw usageError(`--hook-timeout must be a positive number of seconds, not "${text}"`);
  return seconds;
}

function hooksOf(opts: RotateCommandOptions, cwd: string): Journal['hooks'] {
  if (opts.deploy === undefined && opts.verify === undefined) {
    if (opts.hookTimeout !== undefined) throw usageError('--hook-timeout goes with --deploy or --verify');
    return undefined;
  }
  for (const [flag, command] of [
    ['--deploy', opts.deploy],
    ['--verify', opts.verify],
  ] as const) {
    if (command !== undefined && command.trim() === '') throw usageError(`${flag} needs a command`);
  }
  return {
    ...(opts.deploy ? { deploy: opts.deploy } : {}),
    ...(opts.verify ? { verify: opts.verify } : {}),
    timeout_s: hookTimeout(opts.hookTimeout) ?? DEFAULT_HOOK_TIMEOUT_S,
    cwd,
  };
}

/**
 * Nothing to resume or abort: a note on stderr, and the outcome on stdout in machine formats. With -q neither,
 * so that a cron job stays silent: cron mails whatever a job prints.
 */
async function nothingToDo(ctx: Context, note: string, outcome: Record<string, unknown>): Promise<number> {
  ctx.log.info(note);
  if (ctx.output.format !== 'table' && !ctx.log.quiet) await ctx.output.object(outcome);
  return 0;
}

async function continueRotation(ctx: Context, opts: RotateCommandOptions, action: 'resume' | 'abort'): Promise<number> {
  // findRotation refuses when there is none; for --resume that is not an error.
  if (action === 'resume' && !lookUpRotation(ctx, opts).found) {
    return nothingToDo(ctx, 'rotate: no rotation is in progress: nothing to resume', { outcome: 'nothing to resume' });
  }
  const { path, journal } = findRotation(ctx, opts, action);
  if (opts.dryRun) {
    await printPendingPlan(ctx, path, journal, action);
    return 0;
  }
  const what = `the rotation of ${describeOwner(journal.owner)} (old key ${journal.old_key.api_key}, at step "${journal.phase}")`;
  await confirm(ctx, action === 'resume' ? `Resume ${what}?` : `Abort ${what}?`);
  const release = lockRotation(path);
  try {
    // Read again under the lock: another process may have moved it on, or finished it, meanwhile.
    const current = readJournal(ctx.configDir, path);
    if (!current) {
      const note = `rotate: the rotation was finished by another trident process meanwhile: nothing to ${action}`;
      return nothingToDo(ctx, note, { outcome: `nothing to ${action}` });
    }
    const rotation = new Rotation(ctx, path, current, liveDeps(ctx, keysBaseUrl(current.url)), {
      resumed: true,
      hookTimeoutS: hookTimeout(opts.hookTimeout),
    });
    return await report(ctx, await (action === 'resume' ? rotation.resume() : rotation.abort()));
  } finally {
    release();
  }
}

/**
 * --if-older-than: the key in use is listed (which also proves it works) and its age compared; a key not due
 * ends the command with exit 0 and nothing changed.
 */
async function notDue(ctx: Context, plan: RotationPlan, thresholdText: string): Promise<boolean> {
  const threshold = parseAge(thresholdText);
  const { keyId } = plan.connection.signer;
  const keys = await (await liveDeps(ctx, plan.connection.baseUrl).client(plan.connection.signer)).list();
  const key = keys.find((k) => k.api_key === keyId);
  if (!key) return false; // the rotation's preflight says what is wrong
  await recordKeyInUse(ctx, keyId);
  const age = keyAges(ctx, [key]).get(keyId) ?? { seconds: 0, source: 'first seen in use' as const };
  const due = age.seconds > threshold;
  ctx.log.info(
    `rotate: key ${keyId} is ${ageText(age.seconds)} old (${age.source === 'service' ? "the service's created_ts" : `${age.source}, trident's record`}): ${due ? `older than ${thresholdText}, rotating` : `not older than ${thresholdText}, nothing to do`}`,
  );
  if (due) return false;
  if (ctx.log.quiet) return true; // nothing done: nothing on stdout, as nothingToDo
  await ctx.output.object({
    outcome: 'not due',
    api_key: keyId,
    age: ageText(age.seconds),
    age_seconds: Math.floor(age.seconds),
    age_source: age.source,
    threshold: thresholdText,
    threshold_seconds: threshold,
  });
  return true;
}

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('rotate')
      .summary('replace the current key with a new one, safely')
      .description(
        [
          'Replace the key in use: check it, make a new key with its scopes and subaccount (by the service, or --local here), store its private half (0600; <config dir>/keys/<api_key>.pem unless --out), point the profile at it, check that a request signed by it works, then delete the old key and its default key file. A failed check rolls everything back. Asks first on a terminal; elsewhere --yes is required.',
          'Every step is journaled (<config dir>/rotations/): after a crash or a kill, --resume finishes the rotation and --abort undoes it. --deploy and --verify switch your application too (when one fails, all is rolled back and the exit code is 10), --if-older-than rotates only an old key, and a key from the environment (TRIDENT_KEY_ID) is rotated without a profile. The whole guide, with hooks and recipes for GitHub Actions and Kubernetes: docs/keys.md and docs/automation.md.',
        ].join('\n\n'),
      )
      .option(
        '--name <name>',
        'name of the new key (default: <old name>-rotated-<UTC time>); trident adds a tag, ~<8 hex>, new for each request',
      )
      .option('--local', 'make the key pair here and upload only its public half, instead of having the service generate it')
      .option('--out <file>', 'store the new private key in this file instead of the keyring or <config dir>/keys/')
      .addOption(new Option('--keep-old', 'do not delete the old key (nor its file)').conflicts('keepOldFor'))
      .option(
        '--keep-old-for <age>',
        'keep the old key this long (24h, 7d) so that instances still using it can switch, then trident keys prune deletes it',
      )
      .option(
        '--deploy <cmd>',
        'shell command that gives the application the new key (its PEM on stdin); run again with the old key on rollback',
      )
      .option(
        '--verify <cmd>',
        'shell command that checks the application works with the new key; the old key is deleted only after it exits 0',
      )
      .option('--hook-timeout <seconds>', `time limit of each --deploy/--verify run (default ${DEFAULT_HOOK_TIMEOUT_S})`)
      .option('--if-older-than <age>', 'rotate only when the key in use is older than this (90d, 36h, 30m, 2w); otherwise exit 0')
      .option('--dry-run', 'print the plan and send nothing')
      .addOption(new Option('--resume', 'finish an interrupted rotation').conflicts(['abort', ...FIXED_AT_START]))
      .addOption(new Option('--abort', 'undo an interrupted rotation').conflicts(FIXED_AT_START)),
  );

export type RotateCommandOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: RotateCommandOptions): Promise<number> {
  if (opts.resume || opts.abort) return continueRotation(ctx, opts, opts.resume ? 'resume' : 'abort');
  const hooks = hooksOf(opts, ctx.cwd);
  if (opts.ifOlderThan !== undefined) parseAge(opts.ifOlderThan);
  const plan: RotationPlan = { ...(await planRotation(ctx, opts)), ...(hooks ? { hooks } : {}) };
  if (opts.dryRun) {
    await printNewPlan(ctx, plan, opts.ifOlderThan);
    return 0;
  }
  if (opts.ifOlderThan !== undefined && (await notDue(ctx, plan, opts.ifOlderThan))) return 0;
  const keyId = plan.connection.signer.keyId;
  await confirm(
    ctx,
    `Rotate key ${keyId}${plan.owner.mode === 'profile' ? ` of profile "${plan.owner.profile}"` : ''}: make a new key${plan.keepOldForS !== undefined ? `, and keep this one for ${ageText(plan.keepOldForS)}` : plan.keepOld ? ' and keep this one' : ', then delete this one'}?`,
  );
  const release = lockRotation(plan.journalPath);
  try {
    const rotation = await beginRotation(ctx, plan, liveDeps(ctx, plan.connection.baseUrl));
    return await report(ctx, await rotation.run());
  } finally {
    release();
  }
}

export const FIXED_AT_START = ['name', 'local', 'out', 'keepOld', 'keepOldFor', 'deploy', 'verify', 'ifOlderThan'];

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident keys rotate --dry-run',
    'trident keys rotate --profile prod --yes -o json',
    'trident keys rotate --local --out ~/.secrets/exchange.pem --keep-old',
    'trident keys rotate --keep-old-for 24h --yes     # then, from cron: trident keys prune',
    'trident keys rotate --deploy ./deploy-key.sh --verify ./check-app.sh --dry-run',
    'trident keys rotate --if-older-than 90d --yes -o json',
    'trident keys rotate --resume --yes',
    'TRIDENT_KEY_ID=... TRIDENT_PRIVATE_KEY_FILE=ci.pem trident keys rotate --yes -o json > rotation.json',
  ],
  run,
});
