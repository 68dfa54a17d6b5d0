// Names people give things (keys, projects, customers), checked before any request: control characters
// other than tab and line breaks are never part of a name (they are pasted escape sequences or binary junk
// and would drive the terminal of whoever lists the name later), and a name has at most 255 characters,
// the limit the time tracker enforces (a megabyte of name is a mistake, not a name).
import { usageError } from './errors.js';
import { escapeControls } from './term/printable.js';

export const MAX_NAME_LENGTH = 255;

const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** What is wrong with `name`, or undefined when it is fine. */
export function nameProblem(name: string): string | undefined {
  const length = Array.from(name).length;
  if (length > MAX_NAME_LENGTH) return `is ${length} characters long; a name has at most ${MAX_NAME_LENGTH}`;
  const control = FORBIDDEN.exec(name);
  if (control) return `contains the control character ${escapeControls(control[0])}`;
  return undefined;
}

/** `name`, or a usage error (exit 2) saying what is wrong with it; `what` names it: "--name". */
export function checkName(name: string, what: string): string {
  const problem = nameProblem(name);
  if (problem) throw usageError(`${what} ${problem}`);
  return name;
}
