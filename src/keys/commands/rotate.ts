import { Option, type Command } from 'commander';
import { reportError } from '../../core/term/report-error.js';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { cancelledError, usageError } from '../../core/errors.js';
import { addConnectionOptions, keysBaseUrl } from '../connection.js';
import { formatAge, keyAges, parseAge, recordKeyInUse } from '../key-ages.js';
import { Rotation, type RotationResult } from '../rotation/machine.js';
import { liveDeps } from '../rotation/deps.js';
import { DEFAULT_HOOK_TIMEOUT_S } from '../rotation/hooks.js';
import { describeOwner, readJournal, type Journal } from '../rotation/journal.js';
import { lockRotation } from '../rotation/lock.js';
import { printNewPlan, printPendingPlan, printReport, rotationReport } from '../rotation/report.js';
import { beginRotation, findRotation, lookUpRotation, planRotation, type RotateOptions, type RotationPlan } from '../rotation/start.js';

export interface RotateCommandOptions extends RotateOptions {
  deploy?: string;
  verify?: string;
  hookTimeout?: string;
  ifOlderThan?: string;
}

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

function hooksOf(opts: RotateCommandOptions): Journal['hooks'] {
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
    cwd: process.cwd(),
  };
}

async function continueRotation(ctx: Context, opts: RotateCommandOptions, action: 'resume' | 'abort'): Promise<number> {
  // findRotation refuses when there is none; for --resume that is not an error.
  if (action === 'resume' && !lookUpRotation(ctx, opts).found) {
    ctx.log.info('rotate: no rotation is in progress: nothing to resume');
    if (ctx.output.format !== 'table') await ctx.output.object({ outcome: 'nothing to resume' });
    return 0;
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
      ctx.log.info(`rotate: the rotation was finished by another trident process meanwhile: nothing to ${action}`);
      if (ctx.output.format !== 'table') await ctx.output.object({ outcome: `nothing to ${action}` });
      return 0;
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
    `rotate: key ${keyId} is ${formatAge(age.seconds)} old (${age.source === 'service' ? "the service's created_ts" : `${age.source}, trident's record`}): ${due ? `older than ${thresholdText}, rotating` : `not older than ${thresholdText}, nothing to do`}`,
  );
  if (due) return false;
  await ctx.output.object({
    outcome: 'not due',
    api_key: keyId,
    age: formatAge(age.seconds),
    age_seconds: Math.floor(age.seconds),
    age_source: age.source,
    threshold: thresholdText,
    threshold_seconds: threshold,
  });
  return true;
}

export async function run(ctx: Context, opts: RotateCommandOptions): Promise<number> {
  if (opts.resume || opts.abort) return continueRotation(ctx, opts, opts.resume ? 'resume' : 'abort');
  const hooks = hooksOf(opts);
  if (opts.ifOlderThan !== undefined) parseAge(opts.ifOlderThan);
  const plan: RotationPlan = { ...planRotation(ctx, opts), ...(hooks ? { hooks } : {}) };
  if (opts.dryRun) {
    await printNewPlan(ctx, plan, opts.ifOlderThan);
    return 0;
  }
  if (opts.ifOlderThan !== undefined && (await notDue(ctx, plan, opts.ifOlderThan))) return 0;
  const keyId = plan.connection.signer.keyId;
  await confirm(
    ctx,
    `Rotate key ${keyId}${plan.owner.mode === 'profile' ? ` of profile "${plan.owner.profile}"` : ''}: make a new key${plan.keepOld ? ' and keep this one' : ', then delete this one'}?`,
  );
  const release = lockRotation(plan.journalPath);
  try {
    const rotation = await beginRotation(ctx, plan, liveDeps(ctx, plan.connection.baseUrl));
    return await report(ctx, await rotation.run());
  } finally {
    release();
  }
}

const FIXED_AT_START = ['name', 'local', 'out', 'keepOld', 'deploy', 'verify', 'ifOlderThan'];

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('rotate')
    .summary('replace the current key with a new one, safely')
    .description(
      [
        'Replace the key in use: check that it works, make a new key with its scopes and subaccount (generated by the service, or with --local here), store the private key (0600, by default in <config dir>/keys/<api_key>.pem), point the profile at it, check that a request signed by the new key works, then delete the old key, and the old key file if it is the default one (<config dir>/keys/<api_key>.pem; a file elsewhere, even one written with --out, is left to you). If the new key fails the check, everything is rolled back. Asks first on a terminal; elsewhere --yes is required.',
        'Every step is recorded in a journal (<config dir>/rotations/key-<old api_key>.json: one rotation per key, whoever owns it) before and after it runs. If the process dies, the journal blocks another rotation until "keys rotate --resume" finishes it or "keys rotate --abort" undoes it; either leaves one working key in the profile and no key on the service that nobody holds. Once the delete of the old key may have been sent, --abort finishes the rotation instead. Both go to the service the rotation started on.',
        'When the key comes from --key-id or TRIDENT_KEY_ID (with TRIDENT_PRIVATE_KEY_FILE or TRIDENT_PRIVATE_KEY) there is no profile to switch: the new key is stored and verified, and the report (-o json) gives its id and file for your secret store; the old key is deleted after that unless --keep-old. Such a rotation is journaled as rotations/key-<old api_key>.json, and --resume / --abort find it with the same key id (the old or the new one).',
        "With --deploy and --verify the application is switched too: after the new key passed its check, --deploy runs through /bin/sh with the new key's PEM on stdin, then --verify (nothing on its stdin); only when both exit 0 is the old key deleted. Both get TRIDENT_DEPLOY_STEP (deploy, verify or rollback), TRIDENT_DEPLOY_KEY_ID, TRIDENT_DEPLOY_KEY_FILE, TRIDENT_OLD_KEY_ID and TRIDENT_NEW_KEY_ID, never a secret in their arguments or environment (TRIDENT_PRIVATE_KEY and tokens are withheld); their output goes to stderr; they run in the directory the rotation started in (also on --resume). A hook that exits non-zero or outlives --hook-timeout fails: the deploy command runs again with the old key (TRIDENT_DEPLOY_STEP=rollback, its PEM on stdin), the profile points back at it and the new key is deleted. If that rollback deploy fails too, both keys are kept with the journal; --abort or --resume retries it.",
        'With --if-older-than the key in use is rotated only when it is older than the age given: its age comes from the service\'s created_ts, else from when trident made it or first saw it in use (<config dir>/key-ages.json). A key not due exits 0 with outcome "not due".',
      ].join('\n\n'),
    )
    .option(
      '--name <name>',
      'name of the new key (default: <old name>-rotated-<UTC time>); trident adds a tag, ~<8 hex>, new for each request',
    )
    .option('--local', 'make the key pair here and upload only its public half, instead of having the service generate it')
    .option('--out <file>', 'where to store the new private key; default <config dir>/keys/<api_key>.pem')
    .option('--keep-old', 'do not delete the old key (nor its file)')
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
    .addOption(new Option('--abort', 'undo an interrupted rotation').conflicts(FIXED_AT_START));
  addConnectionOptions(command).action(bind(run)).addHelpText('after', RECIPES);
  examples(command, [
    'trident keys rotate --dry-run',
    'trident keys rotate --profile prod --yes -o json',
    'trident keys rotate --local --out ~/.secrets/exchange.pem --keep-old',
    'trident keys rotate --deploy ./deploy-key.sh --verify ./check-app.sh --dry-run',
    'trident keys rotate --if-older-than 90d --yes -o json',
    'trident keys rotate --resume --yes',
    'TRIDENT_KEY_ID=... TRIDENT_PRIVATE_KEY_FILE=ci.pem trident keys rotate --yes -o json > rotation.json',
  ]);
}

const RECIPES = `
Recipes (hooks must be idempotent: --resume runs an interrupted one again):
  A GitHub Actions secret (gh secret set reads it from stdin), from cron:
    trident keys rotate --yes --if-older-than 90d \\
      --deploy 'gh secret set EXCHANGE_PRIVATE_KEY --repo me/app &&
        gh secret set EXCHANGE_KEY_ID --repo me/app \\
          --body "$TRIDENT_DEPLOY_KEY_ID" &&
        gh workflow run deploy.yml --repo me/app' \\
      --verify 'curl -fsS --retry 20 --retry-delay 15 --retry-all-errors \\
        https://trader.example.com/health/exchange'
  A Kubernetes secret, then a restart that must come up healthy:
    trident keys rotate --yes \\
      --deploy 'kubectl create secret generic exchange-key \\
          --from-file=key.pem=/dev/stdin \\
          --from-literal=key-id="$TRIDENT_DEPLOY_KEY_ID" \\
          --dry-run=client -o yaml | kubectl apply -f -' \\
      --verify 'kubectl rollout restart deploy/trader &&
        kubectl rollout status deploy/trader --timeout=120s'`;
