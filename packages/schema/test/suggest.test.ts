import { describe, expect, it } from 'vitest';
import { editDistance, likelyMeant } from '../src/index.js';

/** likelyMeant as defined: the closest candidate within the limit, every candidate measured. */
function measuredEveryTime(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) return undefined;
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const limit = Math.min(word.length, candidate.length) <= 4 ? 1 : 2;
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

describe('likelyMeant', () => {
  it('suggests a field within two edits, ignoring case', () => {
    expect(likelyMeant('CheckIntervall', ['CheckInterval', 'Name', 'Url'])).toBe('CheckInterval');
    expect(likelyMeant('checkinterval', ['CheckInterval'])).toBe('CheckInterval');
    expect(likelyMeant('Nmae', ['Name'])).toBe('Name');
  });

  it('suggests nothing for a word that is itself a candidate, or far from every one', () => {
    expect(likelyMeant('Name', ['Nome', 'Name'])).toBeUndefined();
    expect(likelyMeant('Timeout', ['CheckInterval', 'Url'])).toBeUndefined();
    expect(likelyMeant('Ur', ['Urlxx'])).toBeUndefined();
  });

  it('agrees with measuring every candidate, over many generated words', () => {
    const letters = 'abcAB';
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const word = () => Array.from({ length: 1 + random(7) }, () => letters[random(letters.length)]).join('');
    for (let i = 0; i < 2000; i += 1) {
      const candidates = Array.from({ length: 1 + random(6) }, word);
      const probe = word();
      expect(likelyMeant(probe, candidates)).toBe(measuredEveryTime(probe, candidates));
    }
  });
});
