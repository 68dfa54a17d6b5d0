// Where jq programs run. The engine (jq-wasm) runs a program synchronously to its end, and on the main thread
// nothing else happens meanwhile, not even Ctrl-C or SIGTERM being heard. Most programs take less time than
// starting a thread of their own costs, so a program runs here first, for at most
// MAIN_THREAD_MS. One that takes longer is stopped and run again from the start in a worker thread
// (jq-worker.ts), where an interrupt ends it at once; so are the run's later programs. An interrupt that comes
// while a program runs here waits for it to end or be stopped, then trident's own handler has it (vm's
// breakOnSigint would take it instead, and lose it when the time-out stops the program at the same moment). A
// program that outgrows the engine's memory
// (256 MiB) makes it abort, printing "Aborted()": it is reported as JqEngineAborted instead, and the next
// program gets a fresh engine.
import { baselineWasmCompilerOnly } from '../wasm-tier.js';
import { JqEngineAborted, runInWorker, type JqRun } from './jq-worker.js';

export { JqEngineAborted, type JqRun };

type JqHandle = Awaited<ReturnType<typeof import('jq-wasm').loadJq>>;

/** How long a program may hold the main thread: also the longest an interrupt waits to be heard. */
const MAIN_THREAD_MS = 250;

// -c rather than -r: the engine trims its output of leading and trailing blanks, which -r would expose.
const JQ_FLAGS = ['-c'];

let here: Promise<JqHandle> | undefined;
/** Set once a program outlasted its time here: the run's programs go to the worker from then on. */
let toWorker = false;

function loadHere(): Promise<JqHandle> {
  baselineWasmCompilerOnly();
  here ??= import('jq-wasm').then(({ loadJq }) => loadJq());
  return here;
}

/** Runs jq's `expression` on `input` (JSON text; '' compiles the expression without running it). */
export async function runInEngine(expression: string, input: string): Promise<JqRun> {
  if (!toWorker) {
    const jq = await loadHere();
    const run = runBounded(() => jq.raw(input, expression, JQ_FLAGS));
    if (run) return run;
    toWorker = true;
  }
  return runInWorker(expression, input, JQ_FLAGS);
}

let runner: { script: import('node:vm').Script; context: { work?: () => JqRun } } | undefined;

/**
 * `work`, unless it outlasts MAIN_THREAD_MS: undefined then. Either way the engine was cut
 * off mid-program and is dropped.
 */
function runBounded(work: () => JqRun): JqRun | undefined {
  const { Script, createContext } = process.getBuiltinModule('node:vm');
  runner ??= { script: new Script('work()'), context: createContext({}) };
  runner.context.work = work;
  // The engine prints "Aborted()" before it throws: the error is reported, the text is not wanted.
  const print = console.error;
  console.error = () => undefined;
  try {
    return runner.script.runInContext(runner.context as import('node:vm').Context, { timeout: MAIN_THREAD_MS }) as JqRun;
  } catch (error) {
    here = undefined;
    const { code, name } = error as NodeJS.ErrnoException;
    if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    // Out of memory the engine aborts, out of stack it traps: both are a WebAssembly.RuntimeError.
    if (name === 'RuntimeError') throw new JqEngineAborted((error as Error).message);
    throw error;
  } finally {
    console.error = print;
    runner.context.work = undefined;
  }
}
