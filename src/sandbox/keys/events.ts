// What the keys sandbox did on request, in order: every key made and every key deleted, with the key that
// signed the request. Tests check after the fact who made and who deleted which key.
export interface KeyEvent {
  type: 'create' | 'generate' | 'delete';
  /** The key made or deleted. */
  id: string;
  name: string;
  /** The id of the key that signed the request. */
  signer: string;
  at: number;
}

export class KeyEventLog {
  private readonly events: KeyEvent[] = [];

  record(event: KeyEvent): void {
    this.events.push(event);
  }

  /** Copies, oldest first. */
  all(): KeyEvent[] {
    return this.events.map((event) => ({ ...event }));
  }
}
