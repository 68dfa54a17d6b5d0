// What the HTTP core needs from whatever carries its requests: one request, its status, headers and body as a
// stream. undici's dispatchers have this shape (request() of undici-lite.ts); so has node-transport.ts.
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

/** Requests sent before the answers to earlier ones are in (catalog --all): only undici carries them. */
export const isPipelined = (pipelining: number | undefined): boolean => (pipelining ?? 1) > 1;

/**
 * An undici dispatcher (its Agent, its proxy agent, a test's MockAgent) as a Transport. Pipelined, every request
 * says `blocking: false`: undici otherwise sends a GET only once the answer before it is in.
 */
export function fromDispatcher(dispatcher: Dispatcher, pipelined = false): Transport {
  const transport = dispatcher as unknown as Transport;
  if (!pipelined) return transport;
  return {
    request: (request) => transport.request({ ...request, blocking: false } as TransportRequest),
    close: () => transport.close(),
    destroy: () => transport.destroy(),
  };
}
