// What a process's -o json report asserts about keys, to be held against the sandbox's record: a key it made,
// keys that existed or were deleted when it ended, the key the profile uses.
import { PROFILE } from './clients.js';
import type { ProcessRecord } from './observation.js';

export type Claim =
  /** create/generate succeeded: the key exists, its private half in `file`. */
  | { kind: 'made'; id: string; file?: string }
  /** The key existed when the process ended. */
  | { kind: 'exists'; id: string; why: string }
  /** The key is gone. */
  | { kind: 'deleted'; id: string; why: string }
  /** The profile used the key when the process ended, and its file held the key. */
  | { kind: 'profile'; id: string; why: string };

interface RotationReport {
  outcome: string;
  old_key: { api_key: string };
  new_key: { api_key: string } | null;
  old_key_deleted: boolean;
  steps: Array<{ step: string; api_keys?: string[]; deleted?: string[] }>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function rotationClaims(report: RotationReport): Claim[] {
  const oldId = report.old_key.api_key;
  const newId = report.new_key?.api_key;
  const claims: Claim[] = [];
  if (report.outcome === 'rotated' && newId !== undefined) {
    claims.push({ kind: 'exists', id: newId, why: 'reported rotated to it' }, { kind: 'profile', id: newId, why: 'reported rotated' });
    claims.push(
      report.old_key_deleted
        ? { kind: 'deleted', id: oldId, why: 'reported the old key deleted' }
        : { kind: 'exists', id: oldId, why: 'reported rotated, the old key kept' },
    );
  } else if (report.outcome === 'aborted' || report.outcome === 'rolled back') {
    claims.push(
      { kind: 'exists', id: oldId, why: `reported ${report.outcome}` },
      { kind: 'profile', id: oldId, why: `reported ${report.outcome}` },
    );
    if (newId !== undefined) claims.push({ kind: 'deleted', id: newId, why: `reported ${report.outcome}, the new key deleted` });
  }
  for (const step of report.steps) {
    for (const id of [...(step.step === 'delete-new' ? (step.api_keys ?? []) : []), ...(step.deleted ?? [])])
      claims.push({ kind: 'deleted', id, why: `reported step ${step.step} deleted it` });
  }
  return claims;
}

/** keys prune: one result per overlap record; a key it says it deleted (or found gone) is gone. */
function pruneClaims(results: unknown[]): Claim[] {
  return results.flatMap((result): Claim[] =>
    isObject(result) && typeof result.api_key === 'string' && (result.result === 'deleted' || result.result === 'already deleted')
      ? [{ kind: 'deleted', id: result.api_key, why: `reported it pruned (${result.result})` }]
      : [],
  );
}

export function claimsOf(record: ProcessRecord): Claim[] {
  let report: unknown;
  try {
    report = JSON.parse(record.finished.stdout);
  } catch {
    return [];
  }
  if (Array.isArray(report)) return pruneClaims(report);
  if (!isObject(report)) return [];
  if (typeof report.outcome === 'string' && isObject(report.old_key) && Array.isArray(report.steps))
    return rotationClaims(report as unknown as RotationReport);
  // keys setup, move-to-keyring/-file: the key a profile now uses, made by nobody here. The profile judged at exit
  // is the default one (profileAtExit); another's report claims nothing the harness checks.
  if (record.finished.exitCode === 0 && typeof report.api_key === 'string' && typeof report.profile === 'string') {
    const at = typeof report.to === 'string' ? report.to : report.private_key_file;
    return report.profile === PROFILE ? [{ kind: 'profile', id: report.api_key, why: `reported the profile's key at ${String(at)}` }] : [];
  }
  if (record.finished.exitCode === 0 && typeof report.api_key === 'string') {
    const file = typeof report.private_key_file === 'string' ? report.private_key_file : undefined;
    return [{ kind: 'made', id: report.api_key, ...(file ? { file } : {}) }];
  }
  return [];
}
