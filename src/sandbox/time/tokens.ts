// API tokens of the time sandbox, with the public service's two harsh rules: a token belongs to the
// User-Agent that created it (using it from another one destroys it), and a token unused for 30 days dies.
import { randomBytes } from 'node:crypto';

export const TOKEN_IDLE_LIMIT_MS = 30 * 24 * 60 * 60 * 1000;

interface TokenRecord {
  userAgent: string;
  accountId: string;
  lastUsed: number;
}

export type TokenCheck = { ok: true; accountId: string } | { ok: false; reason: 'unknown' | 'expired' | 'user-agent' };

export class TokenStore {
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(private readonly now: () => number) {}

  issue(userAgent: string, accountId: string): string {
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, { userAgent, accountId, lastUsed: this.now() });
    return token;
  }

  has(token: string): boolean {
    return this.live(token) !== undefined;
  }

  /** Checks a token presented with a User-Agent; success counts as a use. */
  use(token: string, userAgent: string): TokenCheck {
    const known = this.tokens.has(token);
    const record = this.live(token);
    if (!record) return { ok: false, reason: known ? 'expired' : 'unknown' };
    if (record.userAgent !== userAgent) {
      this.tokens.delete(token);
      return { ok: false, reason: 'user-agent' };
    }
    record.lastUsed = this.now();
    return { ok: true, accountId: record.accountId };
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  private live(token: string): TokenRecord | undefined {
    const record = this.tokens.get(token);
    if (record && this.now() - record.lastUsed >= TOKEN_IDLE_LIMIT_MS) {
      this.tokens.delete(token);
      return undefined;
    }
    return record;
  }
}
