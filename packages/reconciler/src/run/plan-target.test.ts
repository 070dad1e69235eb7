import { describe, expect, it } from 'vitest';
import { normalisedApiUrl, planTarget, targetMismatch } from './plan-target.js';

describe('a plan\'s target', () => {
  it('writes one API URL per service: lower-case host, no default port, credentials, query, fragment or trailing slash', () => {
    expect(normalisedApiUrl('https://API.Example.com:443/v4/')).toBe('https://api.example.com/v4');
    expect(normalisedApiUrl(' https://user:pw@api.example.com/v4?token=x#y ')).toBe('https://api.example.com/v4');
    expect(normalisedApiUrl('http://127.0.0.1:8080/v4')).toBe('http://127.0.0.1:8080/v4');
  });

  it('names the account by a hash of URL and user name, the same for the same pair and never holding either', () => {
    const target = planTarget('https://api.example.com/v4/', 'api-123');
    expect(target).toEqual(planTarget('https://API.example.com/v4', 'api-123'));
    expect(target.account).toMatch(/^[0-9a-f]{64}$/);
    expect(target.account).not.toBe(planTarget('https://api.example.com/v4', 'api-124').account);
    expect(target.account).not.toBe(planTarget('https://api.example.org/v4', 'api-123').account);
    expect(JSON.stringify(target)).not.toContain('api-123');
  });

  it('refuses another service first, then another account of the same service, and accepts a plan with no target', () => {
    const saved = planTarget('https://api.example.com/v4', 'prod');
    expect(targetMismatch(saved, planTarget('https://api.example.com/v4/', 'prod'))).toBeUndefined();
    expect(targetMismatch(saved, planTarget('http://127.0.0.1:8080/v4', 'prod'))).toBe(
      'it was made against the service at https://api.example.com/v4, and this apply would write to http://127.0.0.1:8080/v4',
    );
    expect(targetMismatch(saved, planTarget('https://api.example.com/v4', 'staging'))).toBe(
      'it was made with another API account of https://api.example.com/v4 than the one this apply signs in with',
    );
    expect(targetMismatch(undefined, saved)).toBeUndefined();
  });
});
