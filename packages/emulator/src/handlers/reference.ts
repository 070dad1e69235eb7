import { randomBytes } from 'node:crypto';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { RequestContext, Router } from '../router.js';
import { getParam } from '../cursor.js';
import { formatTimestamp } from '../time.js';
import { isObj, type Obj } from '../validate.js';
import { key, ok } from './common.js';

function servers(cp: Obj): Obj[] {
  return Array.isArray(cp['Servers']) ? (cp['Servers'] as Obj[]) : [];
}

function renderServer(cp: Obj, server: Obj): Obj {
  return {
    ServerId: server['ServerId'],
    CheckpointId: cp['CheckpointId'],
    CheckpointName: cp['Name'],
    CountryCode: cp['CountryCode'],
    IsPrivateLocation: cp['IsPrivateLocation'],
    Ipv4Addresses: server['Ipv4Addresses'],
    IpV6Addresses: server['IpV6Addresses'],
    IsUpcoming: server['IsUpcoming'],
  };
}

/** POST /Register: the caller signs in with the operator's own login; the new credentials work at once. */
function register(ctx: RequestContext): ReturnType<typeof ok> {
  const body = ctx.body === undefined ? {} : ctx.body;
  if (!isObj(body)) throw badRequest('The request body must be a JSON object (Description, operatorGuid), or empty.');
  // Where Description and operatorGuid travel is not shown: the profile says (query, body, or either).
  const where = ctx.settings.rules.registerParams;
  const pick = (name: string): unknown => {
    if (where !== 'query') for (const [k, v] of Object.entries(body)) if (k.toLowerCase() === name.toLowerCase()) return v;
    return where === 'body' ? undefined : getParam(ctx.query, name);
  };
  const description = pick('Description');
  if (description !== undefined && typeof description !== 'string') throw badRequest('Description must be a string.');
  const target = pick('operatorGuid');
  let operatorGuid = ctx.caller.operatorGuid;
  if (target !== undefined && target !== null && target !== '') {
    if (typeof target !== 'string') throw badRequest('operatorGuid must be a string.');
    if (!ctx.store.operators.has(key(target))) throw badRequest(`operatorGuid ${target} is not a known operator.`);
    if (key(target) !== operatorGuid && !ctx.caller.isAdmin) {
      throw forbidden('Permission denied: only administrators can create API accounts for another operator.');
    }
    operatorGuid = key(target);
  }
  const op = ctx.store.operators.get(operatorGuid);
  const account = {
    UserName: `api-${randomBytes(6).toString('hex')}`,
    Password: randomBytes(24).toString('base64url'),
    OperatorGuid: operatorGuid,
    Description: typeof description === 'string' ? description : '',
    CreatedDate: formatTimestamp(ctx.settings.now()),
  };
  ctx.store.apiAccounts.put(account.UserName, account);
  return ok({
    UserName: account.UserName,
    Password: account.Password,
    AccountId: ctx.store.accountId,
    OperatorName: String(op?.['FullName'] || op?.['Email'] || ''),
    status: 'OK',
  });
}

export function registerReferenceRoutes(router: Router): void {
  router.add('GET', '/Timezone', (ctx) => ok(structuredClone(ctx.store.timezones)));
  router.add('GET', '/Timezone/{timezoneId}', (ctx) => {
    const raw = ctx.params['timezoneId'] ?? '';
    if (!/^-?\d+$/.test(raw)) throw badRequest(`Time zone id "${raw}" must be an integer.`);
    const tz = ctx.store.timezones.find((t) => t['TimezoneId'] === Number(raw));
    if (!tz) throw notFound(`Time zone ${raw} does not exist.`);
    return ok(structuredClone(tz));
  });

  router.add('GET', '/Checkpoint', (ctx) => ok(structuredClone(ctx.store.checkpoints)));
  router.add('GET', '/Checkpoint/Server/{serverId}', (ctx) => {
    const raw = ctx.params['serverId'] ?? '';
    for (const cp of ctx.store.checkpoints) {
      for (const s of servers(cp)) if (String(s['ServerId']) === raw) return ok(structuredClone(renderServer(cp, s)));
    }
    throw notFound(`Checkpoint server ${raw} does not exist.`);
  });
  router.add('GET', '/PrivateCheckpointHealth', (ctx) => {
    const now = formatTimestamp(ctx.settings.now());
    const out: Obj[] = [];
    for (const cp of ctx.store.checkpoints.filter((c) => c['IsPrivateLocation'] === true)) {
      for (const s of servers(cp)) {
        out.push({
          CheckpointId: cp['CheckpointId'],
          CheckpointName: cp['Name'],
          ServerId: s['ServerId'],
          Status: 'Healthy',
          LastSeen: now,
          Warnings: ['Agent version is older than the current release; update the private checkpoint agent.'],
        });
      }
    }
    return ok(out);
  });

  router.add('POST', '/Register', register, 'login');
}
