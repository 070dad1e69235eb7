import { badRequest, forbidden, notFound } from '../errors.js';
import type { Reply, RequestContext, Router } from '../router.js';
import { Store } from '../store.js';
import { Checker, isObj, requireBody, sameGuid, type Obj } from '../validate.js';
import { key, ok } from './common.js';

export const VAULT_ITEM_TYPES = ['CertificateArchive', 'Certificate', 'CredentialSet', 'File', 'OneTimePassword'] as const;
const ALWAYS_SENSITIVE = new Set(['CertificateArchive', 'CredentialSet', 'OneTimePassword']);
const AUTH_TYPES = ['ViewVaultSection', 'ChangeVaultSection'] as const;
/** The JSON name of the one-time-password encoding is not shown in the spec; the emulator calls it this. */
export const OTP_ENCODING_FIELD = 'SecretEncoding';
const FILE_LIMIT = 2 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

// ---- authorization --------------------------------------------------------------------------

export function sectionRights(ctx: RequestContext, sectionGuid: string): { view: boolean; change: boolean } {
  const groups = new Set(ctx.store.groupsOf(ctx.caller.operatorGuid).map((g) => key(String(g.fields['OperatorGroupGuid']))));
  let view = false;
  let change = false;
  for (const a of ctx.store.vaultAuthorizations.values()) {
    if (!sameGuid(a['ContextId'], sectionGuid)) continue;
    const mine =
      (typeof a['OperatorGuid'] === 'string' && key(a['OperatorGuid']) === ctx.caller.operatorGuid) ||
      (typeof a['OperatorGroupId'] === 'string' && groups.has(key(a['OperatorGroupId'])));
    if (!mine) continue;
    if (a['AuthorizationType'] === 'ChangeVaultSection') change = true;
    if (a['AuthorizationType'] === 'ViewVaultSection') view = true;
  }
  // Viewing needs View: Change alone does not grant it (creating Change also creates View, as two objects).
  return { view, change };
}

function findSection(ctx: RequestContext, guid: string, need: 'view' | 'change'): Obj {
  const section = ctx.store.vaultSections.get(key(guid));
  if (!section) throw notFound(`Vault section ${guid} does not exist.`);
  const rights = sectionRights(ctx, guid);
  if (!rights.view && !(need === 'change' && rights.change)) throw forbidden(`Permission denied: no ViewVaultSection authorization on vault section ${guid}.`);
  if (need === 'change' && !rights.change) {
    throw forbidden(`Permission denied: changing vault section "${String(section['Name'])}" needs the ChangeVaultSection authorization.`);
  }
  return section;
}

function addAuthorization(ctx: RequestContext, sectionGuid: string, type: string, principal: { OperatorGuid: string | null; OperatorGroupId: string | null }): Obj {
  for (const a of ctx.store.vaultAuthorizations.values()) {
    if (sameGuid(a['ContextId'], sectionGuid) && a['AuthorizationType'] === type && a['OperatorGuid'] === principal.OperatorGuid && a['OperatorGroupId'] === principal.OperatorGroupId) {
      return a;
    }
  }
  const auth: Obj = { AuthorizationId: Store.newGuid(), ContextId: sectionGuid, AuthorizationType: type, ...principal };
  ctx.store.vaultAuthorizations.put(String(auth['AuthorizationId']), auth);
  return auth;
}

/** Stored in the spec's form; the published profile answers `{AuthorizationId, AuthorizationType, OperatorGuid, OperatorGroupGuid}`. */
function renderVaultAuthorization(ctx: RequestContext, a: Obj): Obj {
  if (ctx.settings.rules.vaultAuthorizationForm === 'spec') return structuredClone(a);
  return { AuthorizationId: a['AuthorizationId'], AuthorizationType: a['AuthorizationType'], OperatorGuid: a['OperatorGuid'] ?? null, OperatorGroupGuid: a['OperatorGroupId'] ?? null };
}

// ---- items ----------------------------------------------------------------------------------

export function usedByText(ctx: RequestContext, itemGuid: string): string {
  const n = ctx.store.vaultRefs.get(key(itemGuid))?.size ?? 0;
  if (n === 0) return '-';
  return n === 1 ? '1 monitor' : `${n} monitors`;
}

/** Sensitive values never leave the emulator: returned as empty strings. */
export function renderVaultItem(ctx: RequestContext, item: Obj): Obj {
  const out = structuredClone(item);
  if (out['IsSensitive'] === true) out['Value'] = '';
  out['Password'] = '';
  if (isObj(out['CertificateArchive'])) out['CertificateArchive'] = { ...out['CertificateArchive'], Password: '', ArchiveData: '' };
  out['VaultItemUsedBy'] = usedByText(ctx, String(item['VaultItemGuid']));
  return out;
}

function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function checkItem(item: Obj, c: Checker): void {
  const type = String(item['VaultItemType']);
  c.string(item, 'Name', { required: true });
  for (const f of ['Value', 'Notes', 'UserName', 'Password']) {
    if (item[f] !== undefined && item[f] !== null && typeof item[f] !== 'string') c.add(`${f} must be a string.`);
  }
  const ca = item['CertificateArchive'];
  if (ca !== undefined && ca !== null) {
    if (!isObj(ca)) c.add('CertificateArchive must be an object.');
    else {
      for (const f of ['Issuer', 'NotBefore', 'NotAfter', 'Password', 'ArchiveData']) {
        if (ca[f] !== undefined && ca[f] !== null && typeof ca[f] !== 'string') c.add(`CertificateArchive.${f} must be a string.`);
      }
      if (typeof ca['ArchiveData'] === 'string' && !BASE64.test(ca['ArchiveData'])) c.add('CertificateArchive.ArchiveData must be base-64.');
    }
  }
  const value = typeof item['Value'] === 'string' ? item['Value'] : '';
  if (type === 'File') {
    if (!BASE64.test(value)) c.add('Value of a File item must be the base-64 encoding of the file.');
    else {
      const bytes = Buffer.byteLength(value.replace(/[\r\n]/g, ''), 'base64');
      if (bytes > FILE_LIMIT) c.add(`File is ${bytes} bytes; vault files are limited to 2 MB (${FILE_LIMIT} bytes).`);
    }
  }
  if (type === 'CertificateArchive' && value !== '' && !BASE64.test(value)) c.add('Value of a CertificateArchive item must be base-64.');
  if (type === 'OneTimePassword') {
    const enc = c.string(item, OTP_ENCODING_FIELD, { oneOf: ['Hex', 'Base32'] }) ?? 'Base32';
    if (value === '') c.add('Value (the one-time-password secret) is required for a OneTimePassword item.');
    else if (enc === 'Hex' && !/^(?:[0-9a-fA-F]{2})+$/.test(value)) c.add(`Value is not a valid Hex secret (${OTP_ENCODING_FIELD} is Hex).`);
    else if (enc === 'Base32' && !/^[A-Za-z2-7]+=*$/.test(value.replace(/\s/g, ''))) c.add(`Value is not a valid Base32 secret (${OTP_ENCODING_FIELD} is Base32).`);
  } else if (item[OTP_ENCODING_FIELD] !== undefined) {
    c.add(`${OTP_ENCODING_FIELD} applies only to OneTimePassword items.`);
  }
}

const ITEM_READ_ONLY = new Set(['VaultItemGuid', 'VaultItemUsedBy']);

function findItem(ctx: RequestContext, guid: string, need: 'view' | 'change'): Obj {
  const item = ctx.store.vaultItems.get(key(guid));
  if (!item) throw notFound(`Vault item ${guid} does not exist.`);
  findSection(ctx, String(item['VaultSectionGuid']), need);
  return item;
}

function createItem(ctx: RequestContext): Reply {
  const body = requireBody(ctx.body, 'vault item');
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  const sectionGuid = c.string(body, 'VaultSectionGuid', { required: true });
  const type = c.string(body, 'VaultItemType', { required: true, oneOf: VAULT_ITEM_TYPES });
  c.done();
  if (sectionGuid === undefined || type === undefined) throw badRequest('VaultSectionGuid and VaultItemType are required.');
  if (!ctx.store.vaultSections.has(key(sectionGuid))) throw badRequest(`VaultSectionGuid ${sectionGuid} does not exist.`);
  const section = findSection(ctx, sectionGuid, 'change');
  let sensitive = ALWAYS_SENSITIVE.has(type);
  // "Not specified on create": the type decides, and the strict profile refuses a contradicting value.
  if (body['IsSensitive'] !== undefined && ctx.settings.rules.sensitiveRules) {
    if (typeof body['IsSensitive'] !== 'boolean') c.add('IsSensitive must be true or false.');
    else if (type === 'File') sensitive = body['IsSensitive'];
    else if (body['IsSensitive'] !== sensitive) c.add(`IsSensitive is fixed for ${type} items (${sensitive}).`);
  }
  const item: Obj = {
    VaultItemGuid: Store.newGuid(),
    Name: body['Name'],
    VaultSectionGuid: section['VaultSectionGuid'],
    VaultItemType: type,
    Value: '',
    IsSensitive: sensitive,
    Notes: '',
    UserName: '',
    Password: '',
  };
  for (const [k, v] of Object.entries(body)) if (!ITEM_READ_ONLY.has(k) && k !== 'IsSensitive' && k !== 'VaultSectionGuid') item[k] = v;
  for (const f of ['Value', 'Notes', 'UserName', 'Password']) if (item[f] === null) item[f] = '';
  if (type === 'OneTimePassword' && item[OTP_ENCODING_FIELD] === undefined) item[OTP_ENCODING_FIELD] = 'Base32';
  checkItem(item, c);
  c.done();
  ctx.store.vaultItems.put(key(String(item['VaultItemGuid'])), item);
  return ok(renderVaultItem(ctx, item));
}

function updateItem(ctx: RequestContext, mode: 'replace' | 'patch'): Reply {
  const guid = ctx.params['vaultItemGuid'] ?? '';
  const existing = findItem(ctx, guid, 'change');
  const body = requireBody(ctx.body, 'vault item');
  const c = new Checker();
  c.pascalKeys(body, ctx.settings.rules);
  if (body['VaultItemGuid'] !== undefined && !sameGuid(body['VaultItemGuid'], guid)) c.add('VaultItemGuid in the body differs from the one in the path.');
  if (body['VaultSectionGuid'] !== undefined && !sameGuid(body['VaultSectionGuid'], String(existing['VaultSectionGuid']))) {
    c.add('VaultSectionGuid cannot be changed after creation; create a new item in the other section instead.');
  }
  if (ctx.settings.rules.sensitiveRules && body['IsSensitive'] !== undefined && body['IsSensitive'] !== existing['IsSensitive']) {
    c.add('IsSensitive cannot be changed after creation.');
  }
  if (mode === 'replace' && body['VaultItemType'] !== undefined && body['VaultItemType'] !== existing['VaultItemType']) {
    c.add('VaultItemType cannot be changed after creation.');
  }
  const sensitive = existing['IsSensitive'] === true;
  const sensitiveFields = sensitive ? ['Value', 'Password'] : ['Password'];
  let next: Obj;
  if (mode === 'replace') {
    // PUT: an omitted ordinary field becomes empty; omitted sensitive values stay unchanged.
    next = {
      VaultItemGuid: existing['VaultItemGuid'],
      Name: body['Name'],
      VaultSectionGuid: existing['VaultSectionGuid'],
      VaultItemType: existing['VaultItemType'],
      Value: '',
      IsSensitive: existing['IsSensitive'],
      Notes: '',
      UserName: '',
      Password: '',
    };
    for (const [k, v] of Object.entries(body)) {
      if (!ITEM_READ_ONLY.has(k) && !['VaultSectionGuid', 'VaultItemType', 'IsSensitive'].includes(k)) next[k] = v;
    }
    for (const f of ['Value', 'Notes', 'UserName']) if (next[f] === null) next[f] = '';
  } else {
    next = structuredClone(existing);
    for (const [k, v] of Object.entries(body)) {
      if (!ITEM_READ_ONLY.has(k) && !['VaultSectionGuid', 'VaultItemType', 'IsSensitive'].includes(k)) next[k] = v;
    }
  }
  for (const f of sensitiveFields) if (blank(body[f])) next[f] = existing[f] ?? '';
  const oldArchive = existing['CertificateArchive'];
  const newArchive = body['CertificateArchive'];
  if (blank(newArchive)) {
    if (oldArchive !== undefined) next['CertificateArchive'] = oldArchive;
  } else if (isObj(newArchive) && isObj(oldArchive)) {
    const merged: Obj = { ...newArchive };
    for (const f of ['Password', 'ArchiveData']) if (blank(newArchive[f])) merged[f] = oldArchive[f];
    next['CertificateArchive'] = merged;
  }
  if (existing['VaultItemType'] === 'OneTimePassword' && next[OTP_ENCODING_FIELD] === undefined) next[OTP_ENCODING_FIELD] = 'Base32';
  checkItem(next, c);
  c.done();
  ctx.store.vaultItems.put(key(guid), next);
  return ok(renderVaultItem(ctx, next));
}

// ---- routes ---------------------------------------------------------------------------------

export function registerVaultRoutes(router: Router): void {
  router.add('GET', '/VaultSection', (ctx) =>
    ok([...ctx.store.vaultSections.values()].filter((s) => sectionRights(ctx, String(s['VaultSectionGuid'])).view).map((s) => structuredClone(s))),
  );
  router.add('GET', '/VaultSection/{vaultSectionGuid}', (ctx) => ok(structuredClone(findSection(ctx, ctx.params['vaultSectionGuid'] ?? '', 'view'))));
  router.add('POST', '/VaultSection', (ctx) => {
    const body = requireBody(ctx.body, 'vault section');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    c.string(body, 'Name', { required: true });
    c.done();
    const guid = Store.newGuid();
    const section: Obj = { VaultSectionGuid: guid, Name: body['Name'] };
    for (const [k, v] of Object.entries(body)) if (k !== 'VaultSectionGuid') section[k] = v;
    ctx.store.vaultSections.put(guid, section);
    // The creator alone gets View and Change; the section is first visible only to them.
    for (const t of AUTH_TYPES) addAuthorization(ctx, guid, t, { OperatorGuid: ctx.caller.operatorGuid, OperatorGroupId: null });
    return ok(structuredClone(section));
  });
  router.add('PUT', '/VaultSection/{vaultSectionGuid}', (ctx) => {
    const guid = ctx.params['vaultSectionGuid'] ?? '';
    const section = findSection(ctx, guid, 'change');
    const body = requireBody(ctx.body, 'vault section');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    c.string(body, 'Name', { required: true });
    if (body['VaultSectionGuid'] !== undefined && !sameGuid(body['VaultSectionGuid'], guid)) c.add('VaultSectionGuid in the body differs from the one in the path.');
    c.done();
    const next: Obj = { VaultSectionGuid: section['VaultSectionGuid'] };
    for (const [k, v] of Object.entries(body)) if (k !== 'VaultSectionGuid') next[k] = v;
    ctx.store.vaultSections.put(key(guid), next);
    return ok(structuredClone(next));
  });
  router.add('DELETE', '/VaultSection/{vaultSectionGuid}', (ctx) => {
    const guid = ctx.params['vaultSectionGuid'] ?? '';
    const section = findSection(ctx, guid, 'change');
    const items = [...ctx.store.vaultItems.values()].filter((i) => sameGuid(i['VaultSectionGuid'], guid));
    if (items.length > 0) {
      throw badRequest(`Vault section "${String(section['Name'])}" still contains ${items.length} item(s) (${items.map((i) => String(i['Name'])).join(', ')}); delete the items first.`);
    }
    ctx.store.vaultSections.remove(key(guid));
    ctx.store.vaultAuthorizations.removeWhere((a) => sameGuid(a['ContextId'], guid));
    return ok();
  });
  router.add('GET', '/VaultSection/{vaultSectionGuid}/Authorization', (ctx) => {
    const guid = ctx.params['vaultSectionGuid'] ?? '';
    findSection(ctx, guid, 'view');
    return ok([...ctx.store.vaultAuthorizations.values()].filter((a) => sameGuid(a['ContextId'], guid)).map((a) => renderVaultAuthorization(ctx, a)));
  });
  router.add('POST', '/VaultSection/{vaultSectionGuid}/Authorization', (ctx) => {
    const guid = ctx.params['vaultSectionGuid'] ?? '';
    const section = findSection(ctx, guid, 'change');
    const body = requireBody(ctx.body, 'vault authorization');
    const c = new Checker();
    c.pascalKeys(body, ctx.settings.rules);
    const type = c.string(body, 'AuthorizationType', { required: true, oneOf: AUTH_TYPES });
    if (body['ContextId'] !== undefined && !sameGuid(body['ContextId'], guid)) c.add('ContextId must be the GUID of the vault section in the path.');
    const op = blank(body['OperatorGuid']) ? null : body['OperatorGuid'];
    // The spec's `OperatorGroupId` and the published definition's `OperatorGroupGuid` are both taken.
    const grp = blank(body['OperatorGroupGuid']) ? (blank(body['OperatorGroupId']) ? null : body['OperatorGroupId']) : body['OperatorGroupGuid'];
    if ((op === null) === (grp === null)) c.add('Exactly one of OperatorGuid and OperatorGroupGuid must have a value.');
    if (op !== null && (typeof op !== 'string' || !ctx.store.operators.has(key(op)))) c.add(`OperatorGuid ${String(op)} does not exist.`);
    if (grp !== null && (typeof grp !== 'string' || !ctx.store.operatorGroups.has(key(grp)))) c.add(`OperatorGroupGuid ${String(grp)} does not exist.`);
    c.done();
    const principal = { OperatorGuid: op === null ? null : key(String(op)), OperatorGroupId: grp === null ? null : key(String(grp)) };
    const sectionGuid = String(section['VaultSectionGuid']);
    const created = addAuthorization(ctx, sectionGuid, String(type), principal);
    // Change implies View: granting Change also records View for the same principal.
    if (type === 'ChangeVaultSection') addAuthorization(ctx, sectionGuid, 'ViewVaultSection', principal);
    return ok(renderVaultAuthorization(ctx, created));
  });
  router.add('DELETE', '/VaultSection/{vaultSectionGuid}/Authorization/{authorizationGuid}', (ctx) => {
    const guid = ctx.params['vaultSectionGuid'] ?? '';
    findSection(ctx, guid, 'change');
    const id = ctx.params['authorizationGuid'] ?? '';
    const auth = ctx.store.vaultAuthorizations.get(key(id));
    if (!auth || !sameGuid(auth['ContextId'], guid)) throw notFound(`Authorization ${id} does not exist on vault section ${guid}.`);
    ctx.store.vaultAuthorizations.remove(key(id));
    return ok();
  });

  router.add('GET', '/VaultItem', (ctx) => {
    const visible = new Map<string, boolean>();
    const out: Obj[] = [];
    for (const item of ctx.store.vaultItems.values()) {
      const s = key(String(item['VaultSectionGuid']));
      let v = visible.get(s);
      if (v === undefined) visible.set(s, (v = sectionRights(ctx, s).view));
      if (v) out.push(renderVaultItem(ctx, item));
    }
    return ok(out);
  });
  router.add('GET', '/VaultItem/{vaultItemGuid}', (ctx) => ok(renderVaultItem(ctx, findItem(ctx, ctx.params['vaultItemGuid'] ?? '', 'view'))));
  router.add('POST', '/VaultItem', createItem);
  router.add('PUT', '/VaultItem/{vaultItemGuid}', (ctx) => updateItem(ctx, 'replace'));
  router.add('PATCH', '/VaultItem/{vaultItemGuid}', (ctx) => updateItem(ctx, 'patch'));
  router.add('DELETE', '/VaultItem/{vaultItemGuid}', (ctx) => {
    const guid = ctx.params['vaultItemGuid'] ?? '';
    const item = findItem(ctx, guid, 'change');
    const users = ctx.store.vaultRefs.get(key(guid));
    if (users && users.size > 0) {
      const names = [...users].slice(0, 5).map((m) => `"${String(ctx.store.monitors.get(m)?.fields['Name'])}"`);
      throw badRequest(
        `Vault item "${String(item['Name'])}" is in use by ${users.size} monitor(s) (${names.join(', ')}${users.size > 5 ? ', ...' : ''}); remove the {{vault:${key(guid)}}} references first.`,
      );
    }
    ctx.store.vaultItems.remove(key(guid));
    return ok();
  });
}
