// Node makes process.stderr on first use, and for a pipe that costs a socket. Most commands never write
// to stderr, so its listeners are added when something first reads it, not at start-up.

type StdioName = 'stdout' | 'stderr';

/** Calls `created` with process[name] as soon as it is first read (at once if it cannot wait for that). */
export function whenStdioCreated(name: StdioName, created: (stream: NodeJS.WriteStream) => void): void {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  if (!descriptor?.get || !descriptor.configurable) {
    created(process[name]);
    return;
  }
  const makeStream = descriptor.get;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable ?? true,
    get() {
      // Node's own getter again (it keeps the stream it made), then the listeners, before anyone can write.
      Object.defineProperty(process, name, descriptor);
      const stream = makeStream.call(process) as NodeJS.WriteStream;
      created(stream);
      return stream;
    },
  });
}
