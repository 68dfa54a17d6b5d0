// The e2e tests run the built binary: build it from the current sources once per test run, with the test-only
// hooks (crash checkpoints) that the published build leaves out.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--no-clean', '--test-hooks'], { stdio: 'inherit' });
}
