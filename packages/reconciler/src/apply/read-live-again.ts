import { isUnclearOutcome } from '@monsync/client';
import { readLive } from '../live/read-live.js';
import type { LiveClient, LiveScope, LiveSnapshot } from '../live/types.js';
import { LiveReadError } from '../plan/errors.js';

/**
 * `readLive`, read again from the start when a listing failed with an unclear outcome (5xx, reset, timeout) after
 * the client's own retries. Apply re-reads before it plans and after it applies (`--verify`), and a transient
 * failure there should cost a second read, not the run. A failed listing is still never read as empty: after
 * `attempts` reads, or on any other error, the error is thrown.
 */
export async function readLiveAgainOnUnclear(client: LiveClient, scope: LiveScope, attempts = 3): Promise<LiveSnapshot> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await readLive(client, scope);
    } catch (error) {
      const transient = error instanceof LiveReadError && isUnclearOutcome(error.cause);
      if (!transient || attempt >= attempts) throw error;
    }
  }
}
