// Integer literals beyond 2^53 (ids of the time tracker), kept exact as bigint from the answer to the output.
// Node 20's JSON.parse gives a reviver no literal's source text (Node 22 does), and JSON.stringify cannot write
// a bigint: on the way in each such literal becomes a string carrying a marker, turned back into a bigint by the
// reviver; on the way out each bigint becomes such a string, whose quotes are then taken off. The marker is
// random, made once per process, so no string an answer carries can pass for one.

let marker: string | undefined;

const markerText = (): string => (marker ??= `trident-integer-${globalThis.crypto.randomUUID()}:`);

/** An integer in decimal digits: a number when a double holds it exactly, else a bigint. */
export function exactInteger(digits: string): number | bigint {
  const value = BigInt(digits);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * Parses `text`, valid JSON, with the literals at `spans` (integer literals outside strings, as scan.ts finds
 * them) as bigints. Each becomes a string where a value stood, so the text stays valid JSON of the same shape.
 */
export function parseWithBigIntegers(text: string, spans: ReadonlyArray<readonly [number, number]>): unknown {
  const mark = markerText();
  let rewritten = '';
  let from = 0;
  for (const [start, end] of spans) {
    rewritten += `${text.slice(from, start)}"${mark}${text.slice(start, end)}"`;
    from = end;
  }
  rewritten += text.slice(from);
  return JSON.parse(rewritten, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(mark) ? BigInt(value.slice(mark.length)) : value,
  );
}

/** JSON.stringify that writes a bigint as its digits. */
export function jsonText(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? 'null';
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  const mark = markerText();
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${mark}${item}` : item), indent) ?? 'null';
  return text.replace(new RegExp(`"${mark}(-?\\d+)"`, 'g'), '$1');
}
