// The binary tests run the built CLI: build it from the current sources once per test run into .test-build/,
// with the test-only hooks (crash checkpoints) that the published build in dist/ leaves out. (Each project that
// runs the binary names this setup; the first one builds.)
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  if (process.env.TRIDENT_TEST_BUILD_DONE) return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--test'], { stdio: 'inherit' });
  process.env.TRIDENT_TEST_BUILD_DONE = '1';
}
