// What the HTTP core needs from whatever carries its requests: one request, its status, headers and body as a
// stream. undici's dispatchers have this shape (request() of undici-transport.ts); so has node-transport.ts.
import type { Dispatcher } from 'undici';

export interface TransportRequest {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The attempt's deadline, for undici. */
  signal: AbortSignal;
  /** The same deadline as a callback, for node:http (see attempt-deadline.ts). */
  onDeadline(listener: (error: Error) => void): void;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer | Uint8Array> & { destroy(): void };
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /**
   * Called once every request is answered: no connection holds the process from then on. (Node's idle keep-alive
   * sockets already hold nothing, and may stay open until the process ends: see node-transport.ts.)
   */
  close(): Promise<void>;
  /** Ends every connection now, also one still being made. */
  destroy(): Promise<void>;
}

/** An undici dispatcher (its proxy agent, a test's MockAgent) as a Transport. */
export function fromDispatcher(dispatcher: Dispatcher): Transport {
  return dispatcher as unknown as Transport;
}
