// Key ids go into URL paths and file names: one that could change either is refused, whoever sent it.
import { usageError } from '../core/errors.js';

/**
 * Why a key id cannot be used, if it cannot: ids go into URL paths (DELETE /api_keys/<id>) and file names,
 * so nothing that could change the path is accepted: ".", "..", empty, "/", "\", "?", "#", "%" (encoded
 * separators and dots), whitespace or control characters.
 */
export function keyIdProblem(id: string): string | undefined {
  if (id === '' || id === '.' || id === '..') return 'is not a key id';
  if (/[/\\?#%\s\p{Cc}]/u.test(id)) return 'holds a character a key id cannot have (/, \\, ?, #, %, spaces or control characters)';
  return undefined;
}

/** A key id from the command line, checked before anything is sent (exit 2). */
export function checkKeyId(id: string): string {
  const problem = keyIdProblem(id);
  if (problem !== undefined) throw usageError(`invalid key id ${JSON.stringify(id)}: it ${problem}`);
  return id;
}
