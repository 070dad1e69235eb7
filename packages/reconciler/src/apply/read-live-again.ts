import { isUnclearOutcome } from '@monsync/client';
import { readLive } from '../live/read-live.js';
import type { LiveClient, LiveScope, LiveSnapshot } from '../live/types.js';
import { LiveReadError } from '../plan/errors.js';

/**
 * `readLive`, read again from the start when a listing failed with an unclear outcome (5xx, reset, timeout), up to
 * `attempts` reads. The default is one read: the client already retries every listing's requests on 5xx, 429, resets
 * and timeouts, and reading again would send each of them more often than its retry policy allows. A failed listing is
 * never read as empty: after `attempts` reads, or on any other error, the error is thrown.
 */
export async function readLiveAgainOnUnclear(client: LiveClient, scope: LiveScope, attempts = 1): Promise<LiveSnapshot> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await readLive(client, scope);
    } catch (error) {
      const transient = error instanceof LiveReadError && isUnclearOutcome(error.cause);
      if (!transient || attempt >= attempts) throw error;
    }
  }
}
