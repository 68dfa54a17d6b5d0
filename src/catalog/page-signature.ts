// What tells one page of a list from another without keeping it: a hash of its rows. --all remembers the
// hash of every page it read, so that a page served again, however many pages later, is known.
// The rows are serialized once more for it, a small part of what the service takes to serve a page (and
// trident reads ahead). The hash is cyrb53's mixing on four lanes: about 106 bits, so
// that over a million pages the odds that two different ones meet are near 10^-20; it is fast, and not meant to
// resist a service that wants its own walk stopped.

export function pageSignature(items: readonly unknown[]): string {
  const text = JSON.stringify(items);
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  let c = 0x9e3779b9;
  let d = 0x85ebca6b;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 2654435761);
    b = Math.imul(b ^ code, 1597334677);
    c = Math.imul(c ^ code, 2246822519);
    d = Math.imul(d ^ code, 3266489917);
  }
  return `${mix(a, b)}:${mix(c, d)}`;
}

/** cyrb53's finish: two 32-bit lanes into one 53-bit number. */
function mix(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
