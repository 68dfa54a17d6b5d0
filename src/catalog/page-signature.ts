// What tells one page of a list from another without keeping it: a hash of its rows. --all remembers the
// hash of every page it read, so that a page served again, however many pages later, is known. SHA-256, from
// Node: not for secrecy, but so that two different pages never meet by chance over any walk.

export function pageSignature(items: readonly unknown[]): string {
  // node:crypto is loaded here, by --all only: a command that prints one page never needs it.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(JSON.stringify(items)).digest('base64');
}
