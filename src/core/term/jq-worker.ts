// The jq engine in a worker thread, for the programs that outlast their time on the main thread (jq-engine.ts):
// the main thread only waits, so Ctrl-C and SIGTERM are heard at once, and exiting ends the worker with the
// process. A program that outgrows the engine's memory makes it abort: the worker reports that, and is replaced.
// One worker serves every program sent to it in a run.
import type { Worker } from 'node:worker_threads';
import { baselineWasmCompilerOnly } from '../wasm-tier.js';

/** What jq wrote and its exit code, as jq-wasm's raw() gives them. */
export interface JqRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The engine stopped on this program, out of memory (or of stack): it is gone, the next program gets a new one. */
export class JqEngineAborted extends Error {}

interface Job {
  id: number;
  expression: string;
  input: string;
  flags: string[];
}

type Reply = { id: number; run: JqRun } | { id: number; failed: string; aborted: boolean };

/**
 * What the worker runs. Its source text is handed to the worker to evaluate, so it uses nothing of this module:
 * jq-wasm is required from beside this file (dist/ or src/), as the main thread would find it.
 */
function workerMain(): void {
  const threads = process.getBuiltinModule('node:worker_threads');
  const { parentPort } = threads;
  const { from } = threads.workerData as { from: string };
  // Not to be printed: the engine's "Aborted()" (its error reaches the main thread).
  console.error = () => undefined;
  const jqWasm = process.getBuiltinModule('node:module').createRequire(from)('jq-wasm') as typeof import('jq-wasm');
  const ready = jqWasm.loadJq();
  ready.catch(() => undefined);
  const answer = async ({ id, expression, input, flags }: Job) => {
    try {
      parentPort!.postMessage({ id, run: (await ready).raw(input, expression, flags) });
    } catch (error) {
      // A WebAssembly.RuntimeError is the engine failing on this program, out of memory or stack (see jq-engine.ts).
      parentPort!.postMessage({
        id,
        failed: String((error as Error)?.message ?? error),
        aborted: (error as Error)?.name === 'RuntimeError',
      });
    }
  };
  parentPort!.on('message', (job: Job) => void answer(job));
}

/** A worker and the programs it has been given and not answered yet. */
interface Engine {
  worker: Worker;
  waiting: Map<number, { resolve: (run: JqRun) => void; reject: (error: Error) => void }>;
}

let current: Engine | undefined;
let nextId = 0;

function startEngine(): Engine {
  baselineWasmCompilerOnly();
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(`(${workerMain.toString()})()`, { eval: true, workerData: { from: __filename } });
  const engine: Engine = { worker, waiting: new Map() };
  const failAll = (error: Error) => {
    for (const { reject } of engine.waiting.values()) reject(error);
    engine.waiting.clear();
  };
  worker.on('message', (reply: Reply) => {
    const job = engine.waiting.get(reply.id);
    engine.waiting.delete(reply.id);
    if ('run' in reply) return job?.resolve(reply.run);
    // Cut off in the middle of a program, the engine's state is not to be trusted.
    stop(engine);
    job?.reject(reply.aborted ? new JqEngineAborted(reply.failed) : new Error(reply.failed));
  });
  worker.on('error', (error) => {
    stop(engine);
    failAll(error);
  });
  worker.on('exit', () => {
    if (current === engine) current = undefined;
    failAll(new Error('the jq engine stopped'));
  });
  // Idle, it does not keep trident running (ref'd while a program runs). After the listeners: adding a
  // 'message' listener refs the worker's port again.
  worker.unref();
  return engine;
}

/** Ends an engine: the next program starts another. */
function stop(engine: Engine): void {
  if (current === engine) current = undefined;
  void engine.worker.terminate();
}

/** Runs jq's `expression` on `input` (JSON text; '' compiles the expression without running it). */
export function runInWorker(expression: string, input: string, flags: string[]): Promise<JqRun> {
  current ??= startEngine();
  const { worker, waiting } = current;
  const id = nextId++;
  worker.ref();
  return new Promise<JqRun>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, expression, input, flags } satisfies Job);
  }).finally(() => {
    if (waiting.size === 0) worker.unref();
  });
}
