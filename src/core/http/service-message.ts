// Pulls the human message and code out of any of the error body shapes the three services use (the sandboxes'
// and the public services'): {"error":{"code","message","details"}}, flat {"code","message","details"},
// {"msg"}, {"error":"text"}, {"status","message"}, {"detail":"text"} and FastAPI's {"detail":[{loc,msg}]}.
import { jsonText } from '../json/big-integers.js';

export interface ServiceMessage {
  message?: string;
  code?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

export function serviceMessage(body: unknown): ServiceMessage {
  if (!isObject(body)) return {};
  if (isObject(body.error)) return fromCodeMessageDetails(body.error);
  if (typeof body.error === 'string') return { message: body.error };
  if (Array.isArray(body.detail)) return { message: validationLines(body.detail).join('; ') };
  if (text(body.detail)) return { message: text(body.detail) };
  if (text(body.msg)) return { message: text(body.msg) };
  return fromCodeMessageDetails(body);
}

/** FastAPI's 422 detail list as readable lines: `query.limit: Input should be less than or equal to 100`. */
export function validationLines(detail: unknown[]): string[] {
  return detail.map((item) => {
    if (!isObject(item)) return String(item);
    const loc = Array.isArray(item.loc) ? item.loc.join('.') : undefined;
    const msg = text(item.msg) ?? jsonText(item);
    return loc ? `${loc}: ${msg}` : msg;
  });
}

function fromCodeMessageDetails(error: Json): ServiceMessage {
  const code = text(error.code);
  const message = text(error.message);
  const details = text(error.details);
  // The exchange answers {"code":"authentication_error","message":"authentication_error","details":"INCORRECT_API_KEY_SIGNATURE"}:
  // the useful word is in details.
  if (details && (!message || message === code)) return { message: details, code: details };
  if (message && details) return { message: `${message}: ${details}`, code: code ?? details };
  return { message, code };
}
