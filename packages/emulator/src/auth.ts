import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from './errors.js';
import type { AuthKind, Caller } from './router.js';
import type { ApiAccount, Store } from './store.js';

/**
 * API `Authorization` headers already verified against each store. Clients send the same header on every
 * request, and decoding plus two SHA-256 digests per request was a large share of a GET's cost. An entry
 * counts only while the store still holds that very account with the same password, so a changed password,
 * a removed account or a reset (a new store) falls back to the full check.
 */
const verified = new WeakMap<Store, Map<string, { account: ApiAccount; password: string }>>();
const MAX_VERIFIED = 64;

function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function parseBasic(header: string | undefined): { user: string; password: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m?.[1]) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Resolves the caller; never echoes credentials in the error. */
export function authenticate(store: Store, header: string | undefined, kind: AuthKind): Caller {
  if (kind === 'api' && header !== undefined) {
    const hit = verified.get(store)?.get(header);
    if (hit && store.apiAccounts.get(hit.account.UserName) === hit.account && hit.account.Password === hit.password) {
      const operatorGuid = hit.account.OperatorGuid.toLowerCase();
      if (store.operators.has(operatorGuid)) return { operatorGuid, isAdmin: store.isAdmin(operatorGuid), apiUserName: hit.account.UserName };
    }
  }
  const creds = parseBasic(header);
  if (!creds) throw unauthorized('Authentication required: send HTTP Basic credentials of an API account.');
  if (kind === 'api') {
    const account = store.apiAccounts.get(creds.user);
    if (!account || !safeEqual(account.Password, creds.password) || !store.operators.has(account.OperatorGuid.toLowerCase())) {
      throw unauthorized('Invalid API credentials.');
    }
    remember(store, header ?? '', account);
    const operatorGuid = account.OperatorGuid.toLowerCase();
    return { operatorGuid, isAdmin: store.isAdmin(operatorGuid), apiUserName: account.UserName };
  }
  const operator = store.findOperator(creds.user);
  const stored = operator?.['Password'];
  if (!operator || typeof operator['Email'] !== 'string' || operator['Email'].toLowerCase() !== creds.user.toLowerCase()) {
    throw unauthorized('Invalid login credentials: /Register takes the operator\'s own e-mail address and password.');
  }
  if (operator['AllowNativeLogin'] === false || typeof stored !== 'string' || stored === '') {
    throw unauthorized('This operator signs in only through single sign-on and cannot use /Register; use a separate operator account.');
  }
  if (!safeEqual(stored, creds.password)) {
    throw unauthorized('Invalid login credentials: /Register takes the operator\'s own e-mail address and password.');
  }
  const operatorGuid = String(operator['OperatorGuid']).toLowerCase();
  return { operatorGuid, isAdmin: store.isAdmin(operatorGuid), apiUserName: '' };
}

function remember(store: Store, header: string, account: ApiAccount): void {
  let cache = verified.get(store);
  if (!cache) verified.set(store, (cache = new Map()));
  // Bounded: a client cycling through many accounts only costs the full check again.
  if (cache.size >= MAX_VERIFIED) cache.clear();
  cache.set(header, { account, password: account.Password });
}
