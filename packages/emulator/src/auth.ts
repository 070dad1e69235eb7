import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from './errors.js';
import type { AuthKind, Caller } from './router.js';
import type { Store } from './store.js';

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
  const creds = parseBasic(header);
  if (!creds) throw unauthorized('Authentication required: send HTTP Basic credentials of an API account.');
  if (kind === 'api') {
    const account = store.apiAccounts.get(creds.user);
    if (!account || !safeEqual(account.Password, creds.password) || !store.operators.has(account.OperatorGuid.toLowerCase())) {
      throw unauthorized('Invalid API credentials.');
    }
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
