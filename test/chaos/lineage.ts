// Who a key belongs to and when it existed, from the sandbox's own event log: a key belongs to the client
// whose key signed its create or generate, back to the client's first key.
import type { Observation } from './observation.js';

export class Lineage {
  private readonly owners = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(private readonly observation: Observation) {
    for (const client of observation.clients) {
      this.owners.set(client.initialKeyId, client.index);
      this.names.set(client.initialKeyId, observation.schedule.clients[client.index]!.keyName);
      if (client.secondKeyId !== undefined) {
        this.owners.set(client.secondKeyId, client.index);
        this.names.set(client.secondKeyId, `${observation.schedule.clients[client.index]!.keyName}-ci`);
      }
    }
    for (const event of observation.events) {
      this.names.set(event.id, event.name);
      if (event.type === 'delete') continue;
      const owner = this.owners.get(event.signer);
      if (owner !== undefined) this.owners.set(event.id, owner);
    }
  }

  owner(id: string): number | undefined {
    return this.owners.get(id);
  }

  /** The name the service gave the key, as the event log has it. */
  name(id: string): string | undefined {
    return this.names.get(id);
  }

  /** `key <id> ("name") of client N`, for messages. */
  describe(id: string): string {
    const owner = this.owners.get(id);
    return `key ${id} ("${this.names.get(id) ?? '?'}")${owner === undefined ? '' : ` of client ${owner}`}`;
  }

  /** The key existed once the first `eventCount` events had happened. */
  existedAfter(id: string, eventCount: number): boolean {
    const events = this.observation.events.slice(0, eventCount);
    const made =
      this.observation.clients.some((client) => client.initialKeyId === id || client.secondKeyId === id) ||
      events.some((event) => event.type !== 'delete' && event.id === id);
    return made && !events.some((event) => event.type === 'delete' && event.id === id);
  }

  aliveAtEnd(id: string): boolean {
    return this.observation.alive.includes(id);
  }

  /** The delete of this key, if any, and the client whose key signed it. */
  deletion(id: string): { index: number; by: number | undefined } | undefined {
    const index = this.observation.events.findIndex((event) => event.type === 'delete' && event.id === id);
    return index < 0 ? undefined : { index, by: this.owners.get(this.observation.events[index]!.signer) };
  }
}
