// A rotation step as people read it: `key=value` details, and the progress line on stderr.
import type { Context } from '../../context.js';
import type { StepRecord } from './journal.js';

export function stepDetails(step: StepRecord): string {
  return Object.entries(step)
    .filter(
      ([name, value]) => !['step', 'status', 'ms'].includes(name) && value !== undefined && !(Array.isArray(value) && value.length === 0),
    )
    .map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join(' ');
}

/** Silenced by --quiet. */
export function logStep(ctx: Context, step: StepRecord): void {
  const details = stepDetails(step);
  ctx.log.info(`rotate: ${step.step} ${step.status} (${step.ms} ms)${details ? ` ${details}` : ''}`);
}
