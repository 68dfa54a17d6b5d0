// The e2e tests run the built binary: build it from the current sources once per test run.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--no-clean'], { stdio: 'inherit' });
}
