// For fuzzing parsers: whatever the input, a parser either returns or refuses with a usage error (exit 2):
// never another exception, which the CLI would report as a bug (exit 1).
import { expect } from 'vitest';
import { TridentError } from '../../src/core/errors.js';

/** The parser's result, or undefined when it refused with exit 2; any other throw fails the property. */
export function usageOnly<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    expect(error).toBeInstanceOf(TridentError);
    expect((error as TridentError).exitCode).toBe(2);
    return undefined;
  }
}

/** Like usageOnly, for async parsers. */
export async function usageOnlyAsync<T>(parse: () => Promise<T>): Promise<T | undefined> {
  try {
    return await parse();
  } catch (error) {
    expect(error).toBeInstanceOf(TridentError);
    expect((error as TridentError).exitCode).toBe(2);
    return undefined;
  }
}
