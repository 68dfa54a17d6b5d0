// What `time login` does with the token it was issued: check it (its characters, then one harmless request)
// before it replaces the stored one, and revoke it again if it cannot be kept, so that no live token is left
// behind that nobody holds.
import type { Context } from '../context.js';
import { ExitCode, TridentError } from '../core/errors.js';
import { timeClient } from './connection.js';
import { isTokenShaped, storeToken } from './token-store.js';
import type { StoredToken } from '../wire/time/token-file.js';

const KEPT = 'the stored token, if any, was left as it was';

export async function keepIssuedToken(ctx: Context, baseUrl: URL, path: string, issued: StoredToken): Promise<void> {
  if (!isTokenShaped(issued.token)) {
    // Not even sent back for revoking: a header with control characters is the very thing to avoid.
    throw new TridentError(
      ExitCode.unavailable,
      'the time service issued a token trident cannot use: a token is one word of visible characters, at most 4096',
      { hint: KEPT },
    );
  }
  const client = await timeClient(ctx, baseUrl, { token: issued.token });
  try {
    await client.listProjects();
  } catch (error) {
    const revoked = await revoke(ctx, baseUrl, issued.token);
    const why = error instanceof Error ? error.message : String(error);
    throw new TridentError(ExitCode.unavailable, `the token the time service issued does not work (${why}); ${revoked}`, { hint: KEPT });
  }
  try {
    await storeToken(ctx, path, issued);
  } catch (error) {
    const revoked = await revoke(ctx, baseUrl, issued.token);
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TridentError(ExitCode.usage, `cannot store the token in ${path}: ${why}; ${revoked}`, {
      hint: `free space or fix the directory, then log in again; ${KEPT}`,
    });
  }
}

/** Revokes a token that is not kept; says what became of it. */
async function revoke(ctx: Context, baseUrl: URL, token: string): Promise<string> {
  try {
    const client = await timeClient(ctx, baseUrl, { token });
    return (await client.revoke()) ? 'it was revoked again' : 'the service no longer knows it';
  } catch (error) {
    return `revoking it failed too (${error instanceof Error ? error.message : String(error)}): it stays valid until it goes unused for 30 days`;
  }
}
