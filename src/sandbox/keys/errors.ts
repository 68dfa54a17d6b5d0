// Error answers of the keys sandbox, in the public service's `{"error":{"code","message","details"}}` shape.
import { json, type SandboxResponse } from '../http/server.js';

export function apiError(status: number, code: string, message: string, details?: string): SandboxResponse {
  return json(status, { error: details === undefined ? { code, message } : { code, message, details } });
}

export function authError(details: string): SandboxResponse {
  return apiError(401, 'authentication_error', 'authentication_error', details);
}

export function forbidden(message: string, details: string): SandboxResponse {
  return apiError(403, 'insufficient_permission', message, details);
}

export function invalid(message: string, details = 'INVALID_PARAMETERS'): SandboxResponse {
  return apiError(400, 'invalid_parameters', message, details);
}

export function notFound(message: string): SandboxResponse {
  return apiError(404, 'not_found', message);
}

export function methodNotAllowed(method: string, allowed: string[]): SandboxResponse {
  return json(
    405,
    { error: { code: 'method_not_allowed', message: `method ${method} not allowed; use ${allowed.join(', ')}` } },
    { allow: allowed.join(', ') },
  );
}
