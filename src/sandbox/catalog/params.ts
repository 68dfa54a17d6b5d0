// Request parameter validation as FastAPI (pydantic v2) does it for the catalog service: every parameter is
// checked in declaration order, and all problems are reported together in a 422 body
// `{"detail":[{"type","loc","msg","input","ctx"?}]}` before the handler itself runs.
import { parsePythonFloat } from './values.js';

export interface ValidationIssue {
  type: string;
  loc: [string, string];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

type Source = 'query' | 'path';

interface IntOptions {
  source?: Source;
  default?: number | null;
  ge?: number;
  le?: number;
  required?: boolean;
}

const INT_MAX = 9_223_372_036_854_775_807n;
const INT_MIN = -9_223_372_036_854_775_808n;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|inf|infinity|nan)$/i;

export class ParamReader {
  readonly issues: ValidationIssue[] = [];

  constructor(
    private readonly query: URLSearchParams,
    private readonly path: Record<string, string> = {},
  ) {}

  /** An integer; `required` means no default. Bounds as FastAPI's `ge`/`le`. */
  int(name: string, options: IntOptions = {}): number | null {
    const value = this.bigint(name, options);
    return value === null ? null : Number(value);
  }

  /** An integer kept exact (the service echoes offsets up to 2^63 − 1 as they came). */
  bigint(name: string, options: IntOptions = {}): bigint | null {
    const source = options.source ?? 'query';
    const raw = this.raw(name, source);
    if (raw === undefined) {
      const fallback = this.missing(name, source, options.required, options.default ?? null);
      return fallback === null ? null : BigInt(fallback);
    }
    const parsed = parsePythonInt(raw);
    if (parsed === 'size') {
      this.issue('int_parsing_size', source, name, 'Unable to parse input string as an integer, exceeded maximum size', raw);
      return null;
    }
    if (parsed === null) {
      this.issue('int_parsing', source, name, 'Input should be a valid integer, unable to parse string as an integer', raw);
      return null;
    }
    if (options.ge !== undefined && parsed < BigInt(options.ge)) {
      this.issue('greater_than_equal', source, name, `Input should be greater than or equal to ${options.ge}`, raw, { ge: options.ge });
      return null;
    }
    if (options.le !== undefined && parsed > BigInt(options.le)) {
      this.issue('less_than_equal', source, name, `Input should be less than or equal to ${options.le}`, raw, { le: options.le });
      return null;
    }
    return parsed;
  }

  float(name: string): number | null {
    const raw = this.raw(name, 'query');
    if (raw === undefined) return null;
    const parsed = parseFloatParam(raw);
    if (parsed === null) {
      this.issue('float_parsing', 'query', name, 'Input should be a valid number, unable to parse string as a number', raw);
      return null;
    }
    return parsed;
  }

  bool(name: string): boolean | null {
    const raw = this.raw(name, 'query');
    if (raw === undefined) return null;
    const parsed = parsePythonBool(raw);
    if (parsed === null) {
      this.issue('bool_parsing', 'query', name, 'Input should be a valid boolean, unable to interpret input', raw);
      return null;
    }
    return parsed;
  }

  str(name: string, options: { source?: Source; default?: string | null; required?: boolean; minLength?: number } = {}): string | null {
    const source = options.source ?? 'query';
    const raw = this.raw(name, source);
    if (raw === undefined) return this.missing(name, source, options.required, options.default ?? null);
    if (options.minLength !== undefined && [...raw].length < options.minLength) {
      const unit = options.minLength === 1 ? 'character' : 'characters';
      this.issue('string_too_short', source, name, `String should have at least ${options.minLength} ${unit}`, raw, {
        min_length: options.minLength,
      });
      return null;
    }
    return raw;
  }

  /** A repeatable parameter (`?store=a&store=b`); null when absent. */
  list(name: string): string[] | null {
    const values = this.query.getAll(name);
    return values.length ? values : null;
  }

  private raw(name: string, source: Source): string | undefined {
    if (source === 'path') return this.path[name];
    const values = this.query.getAll(name);
    // Starlette keeps the last value of a repeated scalar parameter.
    return values.length ? values[values.length - 1] : undefined;
  }

  private missing<T>(name: string, source: Source, required: boolean | undefined, fallback: T): T | null {
    if (required) {
      this.issue('missing', source, name, 'Field required', null);
      return null;
    }
    return fallback;
  }

  private issue(type: string, source: Source, name: string, msg: string, input: unknown, ctx?: Record<string, unknown>): void {
    this.issues.push(ctx ? { type, loc: [source, name], msg, input, ctx } : { type, loc: [source, name], msg, input });
  }
}

/** pydantic's lax string → int: whitespace, `+`, leading zeros, a `.000` tail and single underscores allowed. */
function parsePythonInt(raw: string): bigint | 'size' | null {
  let text = raw.trim();
  let negative = false;
  if (text.startsWith('+')) {
    text = text.slice(1);
    if (text.startsWith('-')) return null;
  }
  if (text.startsWith('-')) {
    text = text.slice(1);
    if (text.startsWith('-') || text.startsWith('+')) return null;
    negative = true;
  }
  const zeroTail = /^(.*)\.0+$/.exec(text);
  if (zeroTail) text = zeroTail[1]!;
  if (text.includes('_')) {
    if (text.startsWith('_') || text.endsWith('_') || text.includes('__')) return null;
    text = text.replaceAll('_', '');
  }
  if (!/^\d+$/.test(text)) return null;
  const value = negative ? -BigInt(text) : BigInt(text);
  if (value > INT_MAX || value < INT_MIN) return 'size';
  return value;
}

function parseFloatParam(raw: string): number | null {
  const text = raw.trim();
  if (FLOAT_TEXT.test(text)) return parsePythonFloat(text);
  if (!text.includes('_') || raw.startsWith('_') || raw.endsWith('_') || raw.includes('__')) return null;
  const stripped = raw.replaceAll('_', '');
  return FLOAT_TEXT.test(stripped) ? parsePythonFloat(stripped) : null;
}

/** pydantic's string → bool: exact words, case-insensitive, no trimming. */
function parsePythonBool(raw: string): boolean | null {
  const lowered = raw.toLowerCase();
  if (raw === '0' || ['f', 'n', 'no', 'off', 'false'].includes(lowered)) return false;
  if (raw === '1' || ['t', 'y', 'on', 'yes', 'true'].includes(lowered)) return true;
  return null;
}
