// What `keys rotate` prints: the report of a rotation (every step with its timing, ids and files; never a
// private key), and for --dry-run the plan of what it would do.
import { ageText } from '../../core/term/times.js';
import type { Context } from '../../context.js';
import { byImportance, type Column } from '../../core/term/output/columns.js';
import type { ApiKey } from '../client.js';
import { keysDir } from '../mint/key-files.js';
import type { RotationResult } from './machine.js';
import { stepDetails } from './steps.js';
import { PHASES, type Journal, type Phase, type StepRecord } from './journal.js';
import type { RotationPlan } from './start.js';

export interface RotationReport {
  outcome: RotationResult['outcome'];
  profile: string | null;
  old_key: ApiKey & { private_key_file: string | null };
  new_key: ApiKey | null;
  /** The new key's private key file; null when the rotation was undone. */
  private_key_file: string | null;
  old_key_deleted: boolean;
  /** --keep-old-for: when keys prune may delete the old key; null otherwise. */
  kept_until: string | null;
  steps: StepRecord[];
  warnings: string[];
}

type Row = Record<string, unknown>;

/** On a narrow terminal the timings go; each step, its status and its details (ids, files) stay. */
const STEP_COLUMNS: Array<Column<StepRecord>> = byImportance<StepRecord>(
  [
    { header: 'step', value: (step) => step.step },
    { header: 'status', value: (step) => step.status },
    { header: 'ms', value: (step) => step.ms },
    { header: 'details', value: stepDetails },
  ],
  { keep: ['step', 'status', 'details'], drop: ['ms'] },
);

const id = (key: unknown) => (key as ApiKey | null)?.api_key;
const SUMMARY: Array<Column<Row>> = [
  { header: 'outcome', value: (row) => row.outcome },
  { header: 'profile', value: (row) => row.profile ?? '(key from flags or environment)' },
  { header: 'old key', value: (row) => id(row.old_key) },
  { header: 'old key deleted', value: (row) => (row.old_key_deleted ? 'yes' : 'no') },
  { header: 'old key kept until', value: (row) => row.kept_until ?? undefined },
  { header: 'new key', value: (row) => id(row.new_key) },
  { header: 'new key name', value: (row) => (row.new_key as ApiKey | null)?.name },
  { header: 'private key file', value: (row) => row.private_key_file },
  { header: 'warnings', value: (row) => (row.warnings as string[]).join('\n') || undefined },
];

export function rotationReport(result: RotationResult): RotationReport {
  const j = result.journal;
  const { file_created_by_trident: _, ...oldKey } = j.old_key;
  return {
    outcome: result.outcome,
    profile: j.owner.mode === 'profile' ? j.owner.profile : null,
    old_key: oldKey,
    new_key: j.new_key ?? null,
    private_key_file: result.outcome === 'rotated' ? (j.private_key_file ?? null) : null,
    old_key_deleted: j.old_key_deleted,
    kept_until: (j.steps.find((step) => typeof step.kept_until === 'string')?.kept_until as string | undefined) ?? null,
    steps: j.steps,
    warnings: j.warnings,
  };
}

/** For people, a table of the steps and one of the rest; for scripts, the whole object. */
async function printWithSteps<S extends Row>(
  ctx: Context,
  report: Row,
  steps: S[],
  columns: Array<Column<S>>,
  summary: Array<Column<Row>>,
): Promise<void> {
  if (ctx.output.format !== 'table') {
    await ctx.output.object(report);
    return;
  }
  if (steps.length > 0) await ctx.output.list(steps, columns);
  await ctx.output.object(
    report,
    summary.filter((field) => field.value(report) !== undefined),
  );
}

/**
 * The report of a rotation that ran. On a terminal whose stderr showed each step as it was done, the table
 * gives the summary alone: every step is on the screen once.
 */
export async function printReport(ctx: Context, report: RotationReport): Promise<void> {
  const stepsOnScreen = ctx.output.format === 'table' && Boolean(ctx.io.stdout.isTTY && ctx.io.stderr.isTTY) && !ctx.log.quiet;
  await printWithSteps(ctx, { ...report }, stepsOnScreen ? [] : report.steps, STEP_COLUMNS, SUMMARY);
}

// ---- --dry-run

interface PlannedStep extends Row {
  step: string;
  action: string;
}

/** Both stay: a plan without its actions says nothing. */
const PLAN_COLUMNS: Array<Column<PlannedStep>> = byImportance<PlannedStep>(
  [
    { header: 'step', value: (step) => step.step },
    { header: 'action', value: (step) => step.action },
  ],
  { keep: ['step', 'action'], drop: [] },
);

const PLAN_SUMMARY: Array<Column<Row>> = [
  { header: 'dry run', value: (row) => row.action ?? 'rotate' },
  { header: 'profile', value: (row) => row.profile ?? '(key from flags or environment)' },
  { header: 'old key', value: (row) => id(row.old_key) },
  { header: 'new key name', value: (row) => row.new_name },
];

/** A new rotation's plan; nothing has been sent, so the old key's name and scopes are not known yet. */
export async function printNewPlan(ctx: Context, plan: RotationPlan, ifOlderThan?: string): Promise<void> {
  const keyId = plan.connection.signer.keyId;
  const name = plan.name ?? '<old key name>-rotated-<UTC time>';
  const target = plan.targetFile ?? `${keysDir(ctx)}/<new api_key>.pem`;
  const steps = newPlanSteps(plan, { keyId, name, target, ifOlderThan });
  await printWithSteps(
    ctx,
    {
      dry_run: true,
      profile: plan.owner.mode === 'profile' ? plan.owner.profile : null,
      old_key: { api_key: keyId, private_key_file: plan.oldKeyFile },
      new_name: name,
      private_key_file: target,
      ...(plan.hooks ? { hooks: plan.hooks } : {}),
      ...(ifOlderThan ? { if_older_than: ifOlderThan } : {}),
      steps,
    },
    steps,
    PLAN_COLUMNS,
    PLAN_SUMMARY,
  );
}

function newPlanSteps(
  plan: RotationPlan,
  { keyId, name, target, ifOlderThan }: { keyId: string; name: string; target: string; ifOlderThan: string | undefined },
): PlannedStep[] {
  const oldFile = plan.oldKeyFile;
  return [
    ...(ifOlderThan
      ? [
          {
            step: 'age',
            action: `GET /api_keys signed by key ${keyId}: go on only if the key is older than ${ifOlderThan} (else exit 0, "not due")`,
          },
        ]
      : []),
    { step: 'preflight', action: `GET /api_keys signed by key ${keyId}: the key works and is listed` },
    {
      step: 'mint',
      action:
        plan.method === 'local'
          ? `make an RSA-2048 pair here and upload its public half as key "${name}", with the old key's scopes and subaccount`
          : `the service generates key "${name}" with the old key's scopes and subaccount`,
    },
    { step: 'store', action: `write its private key (0600) to ${target}` },
    {
      step: 'switch',
      action:
        plan.owner.mode === 'profile'
          ? `point profile "${plan.owner.profile}" (keys.keyId, keys.privateKeyFile) at the new key`
          : 'skip: the key comes from flags or the environment; the report gives the new id and file',
    },
    { step: 'verify', action: 'GET /api_keys signed by the new key must list it; otherwise everything is rolled back' },
    ...hookSteps(plan.hooks),
    {
      step: 'delete-old',
      action:
        plan.keepOldForS !== undefined
          ? `skip: kept ${ageText(plan.keepOldForS)} (recorded in <config dir>/overlap/), then deleted by trident keys prune`
          : plan.keepOld
            ? 'skip: --keep-old'
            : `DELETE /api_keys/${keyId}`,
    },
    {
      step: 'remove-old-file',
      action:
        oldFile === null
          ? 'skip: the old key came from the environment'
          : plan.oldFileCreatedByTrident && !plan.keepOld
            ? `remove ${oldFile}`
            : `skip: keep ${oldFile}`,
    },
  ];
}

/** The application's steps: --deploy, --verify, and the rollback a failure of either brings. */
function hookSteps(hooks: RotationPlan['hooks']): PlannedStep[] {
  if (!hooks) return [];
  const steps: PlannedStep[] = [];
  if (hooks.deploy) {
    steps.push({
      step: 'deploy',
      action: `sh -c ${JSON.stringify(hooks.deploy)} with the new key's PEM on stdin (TRIDENT_DEPLOY_STEP=deploy), time limit ${hooks.timeout_s} s`,
    });
  }
  if (hooks.verify) {
    steps.push({
      step: 'verify-app',
      action: `sh -c ${JSON.stringify(hooks.verify)} (TRIDENT_DEPLOY_STEP=verify), time limit ${hooks.timeout_s} s`,
    });
  }
  if (hooks.deploy) {
    steps.push({
      step: 'on failure',
      action: `roll back: the deploy command again with the old key's PEM (TRIDENT_DEPLOY_STEP=rollback), the profile back, the new key deleted`,
    });
  }
  return steps;
}

const FORWARD: Array<[Phase, string]> = [
  ['minting', 'mint'],
  ['stored', 'switch'],
  ['switching', 'switch'],
  ['switched', 'verify'],
  ['verified', 'deploy'],
  ['deploying', 'deploy'],
  ['deployed', 'verify-app'],
  ['verifying-app', 'verify-app'],
  ['app-verified', 'delete-old'],
  ['deleting-old', 'delete-old'],
  ['old-deleted', 'remove-old-file'],
];

/** The steps --resume or --abort would run from the journaled phase. */
function pendingSteps(journal: Journal, action: 'resume' | 'abort'): string[] {
  const { phase } = journal;
  const forward = action === 'resume' || phase === 'deleting-old' || phase === 'old-deleted';
  if (phase !== 'rolling-back' && phase !== 'rolling-back-app' && forward) {
    const steps = FORWARD.filter(([from]) => PHASES.indexOf(from) >= PHASES.indexOf(phase)).map(([, step]) => step);
    const skipped = (step: string) =>
      (journal.keep_old && step === 'delete-old') ||
      (step === 'deploy' && !journal.hooks?.deploy) ||
      (step === 'verify-app' && !journal.hooks?.verify);
    return [...new Set(steps)].filter((step) => !skipped(step));
  }
  const from = journal.rollback?.from ?? phase;
  const restore = journal.owner.mode === 'profile' && PHASES.indexOf(from) >= PHASES.indexOf('switching');
  const appMayHoldNewKey =
    Boolean(journal.hooks?.deploy) &&
    PHASES.indexOf(from) >= PHASES.indexOf('deploying') &&
    PHASES.indexOf(from) <= PHASES.indexOf('app-verified');
  const redeploy = phase === 'rolling-back-app' || (phase !== 'rolling-back' && appMayHoldNewKey);
  return [...(redeploy ? ['rollback-deploy'] : []), ...(restore ? ['restore-profile'] : []), 'delete-new', 'remove-new-files'];
}

export async function printPendingPlan(ctx: Context, path: string, journal: Journal, action: 'resume' | 'abort'): Promise<void> {
  const describe: Record<string, string> = {
    mint: journal.pending
      ? `settle the interrupted mint (${journal.pending}): keep its key if the private half is in place, delete it if it never arrived; then make key "${journal.new_name}~<tag>" if none was kept`
      : `make key "${journal.new_name}~<tag>" and store its private key`,
    switch: journal.owner.mode === 'profile' ? `point profile "${journal.owner.profile}" at the new key` : 'skip: no profile to switch',
    verify: 'GET /api_keys signed by the new key must list it; otherwise roll back',
    'delete-old': `DELETE /api_keys/${journal.old_key.api_key}`,
    'remove-old-file': journal.old_key.file_created_by_trident
      ? `remove ${journal.old_key.private_key_file}`
      : "skip: the old key file is not trident's own (<config dir>/keys/<api_key>.pem)",
    deploy: `sh -c ${JSON.stringify(journal.hooks?.deploy ?? '')} with the new key's PEM on stdin (again, if it was interrupted)`,
    'verify-app': `sh -c ${JSON.stringify(journal.hooks?.verify ?? '')}`,
    'rollback-deploy': `sh -c ${JSON.stringify(journal.hooks?.deploy ?? '')} with the old key's PEM on stdin (TRIDENT_DEPLOY_STEP=rollback)`,
    'restore-profile': 'point the profile at the old key again',
    'delete-new': journal.new_key
      ? `DELETE /api_keys/${journal.new_key.api_key}`
      : 'delete what the interrupted mint provably made (its pending record); a key not listed yet is deleted by later keys commands if it appears',
    'remove-new-files': 'remove the new private key files',
  };
  const steps = pendingSteps(journal, action).map((step) => ({ step, action: describe[step]! }));
  await printWithSteps(
    ctx,
    {
      dry_run: true,
      action,
      journal: path,
      phase: journal.phase,
      profile: journal.owner.mode === 'profile' ? journal.owner.profile : null,
      old_key: { api_key: journal.old_key.api_key, private_key_file: journal.old_key.private_key_file },
      new_name: journal.new_name,
      new_key: journal.new_key ?? null,
      steps,
    },
    steps,
    PLAN_COLUMNS,
    PLAN_SUMMARY,
  );
}
