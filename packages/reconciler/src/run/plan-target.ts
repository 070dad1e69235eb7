/**
 * Where a plan was made: the service and the API account. A saved plan holds digests of a tree and of an account's
 * state; two accounts in the same state (a staging copy of production) give the same digests, so without its target a
 * plan reviewed for one could be applied to the other. The API has no "who am I" (no `GET /Account` in the fact
 * tables), so the account is named by what monsync signs in with: the normalised API URL and the API user name,
 * hashed (the plan file goes into PR artifacts; the password never enters it).
 */
import { createHash } from 'node:crypto';
import type { PlanTarget } from '@monsync/schema';
import { printableUrl } from './api-url.js';

/**
 * The API root as one text per service: scheme and host in lower case, the default port dropped, no credentials,
 * query or fragment, and no trailing slash (`https://API.example.com:443/v4/` is `https://api.example.com/v4`).
 */
export function normalisedApiUrl(raw: string): string {
  return printableUrl(raw.trim()).replace(/\/+$/, '');
}

export function planTarget(apiUrl: string, apiUsername: string): PlanTarget {
  const url = normalisedApiUrl(apiUrl);
  const account = createHash('sha256').update(`monsync plan target\u0000${url}\u0000${apiUsername}`).digest('hex');
  return { apiUrl: url, account };
}

/**
 * Why a saved plan may not be applied with `now`'s credentials, or undefined when it may (or when it names no target:
 * a plan made before plans recorded one).
 */
export function targetMismatch(saved: PlanTarget | undefined, now: PlanTarget): string | undefined {
  if (saved === undefined) return undefined;
  if (saved.apiUrl !== now.apiUrl) return `it was made against the service at ${saved.apiUrl}, and this apply would write to ${now.apiUrl}`;
  if (saved.account !== now.account) return `it was made with another API account of ${now.apiUrl} than the one this apply signs in with`;
  return undefined;
}
