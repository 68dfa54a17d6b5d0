// Runs the built binary on a real terminal: a pseudo-terminal made by util-linux `script`, for what only
// happens on one (prompts, hidden password input). Everything the program writes lands on the one screen.
import { execa } from 'execa';
import { BIN, childEnv, type CliOptions } from './cli.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** Resolves once `text` is on the screen; fails after a few seconds with the screen in the message. */
  waitFor(text: string): Promise<void>;
  /** Types a line and presses Enter. */
  type(line: string): void;
  /** Presses keys without Enter ("\u0003" is Ctrl-C). */
  press(keys: string): void;
  screen(): string;
  /** The screen as a person reads it: lines ending in \n, no colour codes. */
  plain(): string;
  exitCode(): Promise<number>;
}

/** The terminal's size and kind: `script` gives its pseudo-terminal the size of ours, which tests set. */
export interface Screen {
  columns?: number;
  term?: string;
  /** A shell command trident's stdout is piped into (`head -3`): then only its stderr is on the terminal. */
  pipeTo?: string;
}

export function inTerminal(args: string[], options: CliOptions = {}, { columns, term = 'xterm', pipeTo }: Screen = {}): Terminal {
  const trident = [process.execPath, BIN, ...args].map(quote).join(' ');
  const run = pipeTo === undefined ? trident : `${trident} | ${pipeTo}`;
  const command = columns === undefined ? run : `stty cols ${columns} rows 50 && ${run}`;
  const child = execa('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
    env: { ...childEnv(options), TERM: term },
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    timeout: 30_000,
  });
  let screen = '';
  // Decoded as a stream: a character split between two chunks must not become two replacement characters.
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (screen += chunk));
  return {
    async waitFor(text) {
      const deadline = Date.now() + 10_000;
      while (!screen.includes(text)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`"${text}" never appeared; the screen shows:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    type(line) {
      child.stdin!.write(`${line}\r`);
    },
    press(keys) {
      child.stdin!.write(keys);
    },
    screen: () => screen,
    plain: () => screen.replace(/\r\n/g, '\n').replace(/\u001b\[\d+m/g, ''),
    async exitCode() {
      child.stdin!.end();
      return (await child).exitCode ?? -1;
    },
  };
}
