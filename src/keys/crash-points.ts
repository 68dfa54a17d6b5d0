// Test hook of the crash tests: with TRIDENT_TEST_CRASH_AFTER=<checkpoint> the process SIGKILLs itself at that
// checkpoint, as if killed there. It exists only in a build made with `node scripts/build.mjs --test-hooks`
// (what the tests run); the published build defines __TRIDENT_TEST_HOOKS__ false and esbuild drops the code.
declare const __TRIDENT_TEST_HOOKS__: boolean;

/** For the tests; the hook below spells the name out, so that nothing of it is left in the published build. */
export const CRASH_ENV = 'TRIDENT_TEST_CRASH_AFTER';

export type Checkpoint = (point: string) => Promise<void>;

const noCheckpoint: Checkpoint = async () => undefined;

export function crashHook(env: NodeJS.ProcessEnv): Checkpoint {
  if (typeof __TRIDENT_TEST_HOOKS__ === 'undefined' || !__TRIDENT_TEST_HOOKS__) return noCheckpoint;
  const target = env.TRIDENT_TEST_CRASH_AFTER;
  return async (point) => {
    if (target === undefined || point !== target) return;
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined);
  };
}
