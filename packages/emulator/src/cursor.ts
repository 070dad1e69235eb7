import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest } from './errors.js';
import { isObj, type Obj } from './validate.js';

/**
 * Cursors are signed, opaque and long (spec, Versioning 6): base64url(JSON) + "." + HMAC. The payload
 * names the list it belongs to (`scope`), so a cursor from one list cannot be replayed on another.
 */
export function encodeCursor(secret: string, scope: string, payload: Obj): string {
  const body = Buffer.from(JSON.stringify({ ...payload, scope, n: nonce() })).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** Random bytes for nonces, drawn a few kilobytes at a time: one `randomBytes` call per cursor cost more than the rest of making it. */
let nonces = Buffer.alloc(0);
let nonceAt = 0;

function nonce(): string {
  if (nonceAt + 6 > nonces.length) {
    nonces = randomBytes(6 * 512);
    nonceAt = 0;
  }
  nonceAt += 6;
  return nonces.toString('base64url', nonceAt - 6, nonceAt);
}

export function decodeCursor(secret: string, scope: string, cursor: string): Obj {
  if (/^\d+$/.test(cursor) || cursor.length < 40) {
    throw badRequest(`Cursor "${cursor.slice(0, 20)}" is in the old format, which is rejected since 1 April 2025; start again without Cursor.`);
  }
  const dot = cursor.lastIndexOf('.');
  const body = cursor.slice(0, dot);
  const mac = cursor.slice(dot + 1);
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (dot < 1 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw badRequest('Cursor is not valid (altered, or issued by another server); start again without Cursor.');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Cursor is not valid; start again without Cursor.');
  }
  if (!isObj(payload) || payload['scope'] !== scope) {
    throw badRequest('Cursor belongs to a different list; use it only with the request that returned it.');
  }
  return payload;
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}

/** `Take`: `min`..100 (the spec states both 0..100 and 1..100; the profile says which). */
export function parseTake(query: URLSearchParams, fallback: number, min: number): number {
  const raw = getParam(query, 'Take');
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest(`Take "${raw}" must be an integer from ${min} to 100.`);
  const take = Number(raw);
  if (take < min || take > 100) throw badRequest(`Take ${take} is out of range: it must be from ${min} to 100.`);
  return take;
}

/** Query parameter names are matched case-insensitively, as the service does. */
export function getParam(query: URLSearchParams, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of query) if (key.toLowerCase() === lower) return value;
  return undefined;
}
