// A schedule's fault as a rule of the sandbox's fault injector.
import type { FaultRule } from '../../src/sandbox/http/faults.js';
import { LATE_MS, type FaultPlan } from './schedule.js';

const TARGETS: Record<FaultPlan['on'], Pick<FaultRule, 'method' | 'path'>> = {
  mint: { method: 'POST', path: /\/api_keys(\/generate)?$/ },
  delete: { method: 'DELETE', path: /\/api_keys\/[^/]+$/ },
};

const FAULTS: Record<FaultPlan['kind'], FaultRule['fault']> = {
  late: { kind: 'delay', ms: LATE_MS },
  lost: { kind: 'reset', afterProcessing: true },
  'error-after': { kind: 'status', status: 503, afterProcessing: true },
  'reset-before': { kind: 'reset' },
};

export function faultRule(plan: FaultPlan): FaultRule {
  return { ...TARGETS[plan.on], fault: FAULTS[plan.kind], skip: plan.skip };
}
