// What the HTTP core needs from whatever carries its requests: one request, its status, headers and body as a
// stream. undici's dispatchers have this shape (request() of undici-lite.ts); so has node-transport.ts.

export interface TransportRequest {
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Buffer | Uint8Array> & { destroy(): void };
}

export interface Transport {
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Ends the connections once their requests are answered. */
  close(): Promise<void>;
  /** Ends every connection now, also one still being made. */
  destroy(): Promise<void>;
}
