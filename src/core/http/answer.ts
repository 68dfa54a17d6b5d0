// Reading an answer: its body, up to the cap, and the value a request returns.
import { answerJson } from './answer-json.js';
import { headerValue } from './failures.js';
import type { JsonOptions } from '../json/parse.js';
import type { TransportResponse } from './transport.js';
import type { Answer } from './types.js';

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray'];

/** The body went over the cap; the message is the cap, as "16 MiB". */
export class ResponseTooLarge extends Error {}

/** 16777216 → "16 MiB"; 1000 → "1000 bytes". */
function byteSize(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** The whole body, counted into `progress` as it comes; a Content-Length over the cap is refused unread. */
export async function readCapped(
  body: TransportResponse['body'],
  max: number,
  progress: { bytes: number; expected?: string },
): Promise<Buffer> {
  if (Number(progress.expected) > max) throw new ResponseTooLarge(byteSize(max));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    progress.bytes = size;
    if (size > max) {
      body.destroy();
      throw new ResponseTooLarge(byteSize(max));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function toResponse(response: TransportResponse, body: Buffer, attempts: number, serviceName: string): Answer {
  const headers = response.headers;
  const requestId = REQUEST_ID_HEADERS.map((name) => headerValue(headers[name])).find(Boolean);
  return {
    status: response.statusCode,
    headers,
    body,
    attempts,
    requestId,
    text: () => body.toString('utf8'),
    json<T>(options?: JsonOptions) {
      return answerJson(body.toString('utf8'), serviceName, { status: response.statusCode, requestId }, options) as T;
    },
  };
}
