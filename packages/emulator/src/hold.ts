import { EmulatorConfigError } from './errors.js';

/** Which API requests to hold: a method, a route (the path template, or `METHOD /template`), or both. */
export interface HoldMatch {
  method?: string;
  route?: string;
}

/** Whether a request of `method` on the route `template` is one `match` names (scripted faults match the same way). */
export function matchesRoute(match: HoldMatch, method: string, template: string): boolean {
  return (!match.method || match.method === method) && (!match.route || match.route === template || match.route === `${method} ${template}`);
}

/**
 * API requests held at the door, before they are carried out, until released. A test stops one client at a known
 * point (the first write of the apply holding the lock) while another goes on, and lets it go once it sees what it
 * waited for: the order is decided by what the test observed, never by how long something took.
 */
export class RequestHolds {
  #match: HoldMatch | undefined;
  #waiting: Array<() => void> = [];

  hold(input: unknown): void {
    if (typeof input !== 'object' || input === null) throw new EmulatorConfigError('hold: give { method?, route? }.');
    const { method, route } = input as { method?: unknown; route?: unknown };
    if ((method !== undefined && typeof method !== 'string') || (route !== undefined && typeof route !== 'string')) {
      throw new EmulatorConfigError('hold: method and route must be strings.');
    }
    if (method === undefined && route === undefined) throw new EmulatorConfigError('hold: name a method, a route or both (holding every request would hold the one that releases).');
    this.#match = { ...(method === undefined ? {} : { method: method.toUpperCase() }), ...(route === undefined ? {} : { route }) };
  }

  /** How many requests are held now. */
  held(): number {
    return this.#waiting.length;
  }

  /** Lets every held request go on and holds no more; answers how many were held. */
  release(): number {
    this.#match = undefined;
    const waiting = this.#waiting.splice(0);
    for (const resume of waiting) resume();
    return waiting.length;
  }

  /** Resolves when the request may go on: at once unless it is one to hold. */
  wait(method: string, template: string | undefined): Promise<void> | undefined {
    if (this.#match === undefined || template === undefined || !matchesRoute(this.#match, method, template)) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}
