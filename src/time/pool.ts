// Runs a task per item with at most `concurrency` at a time, and yields the results in the items' order as
// soon as each is ready (a slow row holds back the printing of later ones, not their requests).

export async function* mapInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): AsyncGenerator<R> {
  const results = items.map(() => {
    const settled = deferred<R>();
    // Awaited below in order; this keeps a rejection nobody reached (the consumer stopped early) quiet.
    settled.promise.catch(() => undefined);
    return settled;
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index).then(results[index]!.resolve, results[index]!.reject);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  for (const result of results) yield await result.promise;
  await Promise.all(workers);
}

// Promise.withResolvers arrived in Node 22.
function deferred<R>(): { promise: Promise<R>; resolve: (value: R) => void; reject: (error: unknown) => void } {
  let resolve!: (value: R) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<R>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}
