// Whether the D-Bus session bus answers at all, asked without blocking and with a deadline. The keyring library
// connects to the bus on the calling thread: a peer that takes the connection and never answers would hold the
// whole process until D-Bus's own timeout. One line of the bus's authentication handshake shows it is there.
/** The socket of the first unix address of a D-Bus address list (`unix:path=…` or `unix:abstract=…`), if any. */
export function busSocket(address: string): string | undefined {
  for (const entry of address.split(';')) {
    const [transport, rest = ''] = entry.split(/:(.*)/s);
    if (transport !== 'unix') continue;
    const keys = new Map(rest.split(',').map((pair) => pair.split(/=(.*)/s) as [string, string]));
    const path = keys.get('path');
    if (path) return decodeURIComponent(path);
    const abstract = keys.get('abstract');
    if (abstract) return `\0${decodeURIComponent(abstract)}`;
  }
  return undefined;
}

/** True once the bus answers the start of its handshake (AUTH EXTERNAL); false if it does not within the deadline. */
export function busAnswers(socket: string, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // Loaded here: main imports this module's caller, and most commands never read the keyring.
    const connection = process.getBuiltinModule('node:net').connect(socket);
    const done = (answered: boolean) => {
      clearTimeout(timer);
      connection.destroy();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), deadlineMs);
    const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
    connection.on('connect', () => connection.write(`\0AUTH EXTERNAL ${uid}\r\n`));
    connection.on('data', () => done(true));
    connection.on('error', () => done(false));
    connection.on('close', () => done(false));
  });
}
