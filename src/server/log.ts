/**
 * The companion's logger: JSON lines, with redaction applied to every message and field, because a
 * log line is the easiest place for an API key, a webhook secret, an OTP or a payer's number to leak.
 */
import { redactPhone } from '../contract/phone.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  /** Where each JSON line goes. Default: stdout for debug/info, stderr for warn/error. */
  sink?: (line: string, level: LogLevel) => void;
  /** Lowest level written. Default `info`. */
  level?: LogLevel;
  now?: () => number;
}

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose value is never written, whatever it looks like. */
const secretFieldNames = /^(otp|secret|secrets|apikey|api_key|authorization|password|token|webhooksecret|webhooksecrets)$/i;

const apiKeyPattern = /\bsk_(live|test)_[A-Za-z0-9_-]+/g;
const webhookSecretPattern = /\bwhsec_[A-Za-z0-9_-]+/g;
const bearerPattern = /\bBearer\s+[^\s"',]+/gi;
// E.164 shapes anywhere in text, also inside URLs where `+` became `%2B`.
const phonePattern = /(\+|%2B)(\d{7,15})\b/gi;

/** Removes keys, secrets and all but the last digits of phone numbers from a piece of text. */
export function redactText(text: string): string {
  return text
    .replace(apiKeyPattern, 'sk_…[redacted]')
    .replace(webhookSecretPattern, 'whsec_…[redacted]')
    .replace(bearerPattern, 'Bearer [redacted]')
    .replace(phonePattern, (_match, _plus: string, digits: string) => redactPhone(`+${digits}`));
}

/** Redacts a value of any shape, by field name first and by content second. */
export function redactValue(value: unknown, key = '', depth = 0): unknown {
  if (key && secretFieldNames.test(key)) return '[redacted]';
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, '', depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) out[name] = redactValue(inner, name, depth + 1);
  return out;
}

/**
 * @example
 * const log = createLogger({ level: 'warn' });
 * log.warn('webhook refused', { reason: 'SIGNATURE_MISMATCH', phoneNumber: '+22997000001' });
 * // {"level":"warn","time":"...","msg":"webhook refused","reason":"SIGNATURE_MISMATCH","phoneNumber":"+229••••••••01"}
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const threshold = order[options.level ?? 'info'];
  const now = options.now ?? Date.now;
  const sink =
    options.sink ??
    ((line: string, level: LogLevel) => {
      if (level === 'warn' || level === 'error') process.stderr.write(`${line}\n`);
      else process.stdout.write(`${line}\n`);
    });
  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (order[level] < threshold) return;
    const redacted = fields ? (redactValue(fields) as LogFields) : {};
    const line = JSON.stringify({
      level,
      time: new Date(now()).toISOString(),
      msg: redactText(message),
      ...redacted,
    });
    sink(line, level);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}

/** A logger that writes nothing: for tests and for callers that bring their own logging. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
