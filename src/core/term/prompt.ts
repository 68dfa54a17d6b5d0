// Questions to a person at a terminal. Never asks when there is no terminal or --no-input / CI is set:
// a needed confirmation then fails with exit 3 and says to pass --yes.
import { cancelledError } from '../errors.js';

export interface Prompter {
  /** True to go ahead. `--yes` answers yes; without a terminal it throws (exit 3). */
  confirm(question: string): Promise<boolean>;
  /** A line of input; `hidden` for passwords (nothing is echoed). */
  ask(question: string, options?: { hidden?: boolean }): Promise<string>;
  readonly interactive: boolean;
}

export interface PrompterOptions {
  /** stdin is looked at only when needed: Node builds process.stdin, a stream, on first access. */
  io: {
    readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
    readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  };
  yes: boolean;
  noInput: boolean;
}

export function createPrompter(options: PrompterOptions): Prompter {
  const { io } = options;
  let interactive: boolean | undefined;
  const isInteractive = () => (interactive ??= !options.noInput && Boolean(io.stderr.isTTY) && Boolean(io.stdin.isTTY));

  async function ask(question: string, { hidden = false } = {}): Promise<string> {
    if (!isInteractive()) throw cancelledError(`cannot ask "${question.trim()}" without a terminal`, 'pass the value with a flag');
    // Loaded here, not at start-up: most runs never ask anything.
    const [{ createInterface }, { Writable }] = await Promise.all([import('node:readline'), import('node:stream')]);
    let muted = false;
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!muted) io.stderr.write(chunk);
        done();
      },
    });
    const rl = createInterface({ input: io.stdin, output, terminal: true });
    try {
      const answer = new Promise<string>((resolve, reject) => {
        rl.question(question, resolve);
        rl.once('SIGINT', () => reject(cancelledError('cancelled')));
        rl.once('close', () => reject(cancelledError('cancelled')));
      });
      muted = hidden;
      return await answer;
    } finally {
      muted = false;
      if (hidden) io.stderr.write('\n');
      rl.close();
    }
  }

  return {
    get interactive() {
      return isInteractive();
    },
    ask,
    async confirm(question) {
      if (options.yes) return true;
      // "Delete project 64? This cannot be undone." → "Delete project 64: confirmation needed"
      const action = /^([\s\S]*?)\?(?:\s|$)/.exec(question)?.[1] ?? question;
      if (!isInteractive()) throw cancelledError(`${action}: confirmation needed`, 'pass --yes to confirm without a prompt');
      const answer = await ask(`${question} [y/N] `);
      return /^y(es)?$/i.test(answer.trim());
    },
  };
}
