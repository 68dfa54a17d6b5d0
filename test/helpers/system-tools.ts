// Tests that need a system tool beyond Node (zsh, fish, util-linux `script`) run where it is installed and
// are reported as skipped, with the tool named in the test's title, where it is not. CI installs every one of
// them and fails on any skip (.ci/run), so a skip can only happen on a developer's bare machine.
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';

const found = new Map<string, boolean>();

export function hasTool(name: string): boolean {
  let present = found.get(name);
  if (present === undefined) {
    present = spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
    found.set(name, present);
  }
  return present;
}

/** `it`, skipped (saying why) unless every tool is installed. */
export function itWithTools(tools: string[], title: string, test: () => Promise<void> | void, timeoutMs?: number): void {
  const missing = tools.filter((tool) => !hasTool(tool));
  const named = missing.length === 0 ? title : `${title} (skipped: ${missing.join(', ')} not installed)`;
  it.skipIf(missing.length > 0)(named, test, timeoutMs);
}

/** `describe`, skipped (saying why) unless every tool is installed. */
export function describeWithTools(tools: string[], title: string, tests: () => void): void {
  const missing = tools.filter((tool) => !hasTool(tool));
  describe.skipIf(missing.length > 0)(missing.length === 0 ? title : `${title} (skipped: ${missing.join(', ')} not installed)`, tests);
}
