import { describe, expect, it } from 'vitest';
import { MockAgent, type Dispatcher } from 'undici';
import { clientFromEnv, clientOptionsFromEnv } from './env.js';
import { ClientConfigError } from './errors.js';

const full = { MONSYNC_API_URL: 'http://127.0.0.1:8080/v4', MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'CANARY-7f3a9c' };

describe('clientFromEnv', () => {
  it('builds a client from the three variables', () => {
    const client = clientFromEnv(full);
    expect(client.baseUrl).toBe('http://127.0.0.1:8080/v4');
  });

  it.each(['MONSYNC_API_URL', 'MONSYNC_API_USERNAME', 'MONSYNC_API_PASSWORD'] as const)('names %s when it is missing', (name) => {
    const env: Record<string, string> = { ...full };
    delete env[name];
    expect(() => clientFromEnv(env)).toThrow(ClientConfigError);
    expect(() => clientFromEnv(env)).toThrow(new RegExp(`missing environment variable: ${name} \\(`));
  });

  it('names every missing variable at once and treats blank values as missing', () => {
    let message = '';
    try {
      clientFromEnv({ MONSYNC_API_URL: '  ' });
    } catch (error) {
      message = (error as Error).message;
      expect(error).toMatchObject({ code: 'CLIENT_CONFIG' });
    }
    expect(message).toMatch(/^missing environment variables: MONSYNC_API_URL .*; MONSYNC_API_USERNAME .*; MONSYNC_API_PASSWORD/);
  });

  it('never puts the password in the error', () => {
    expect(() => clientFromEnv({ MONSYNC_API_PASSWORD: 'CANARY-7f3a9c' })).toThrow(/^(?!.*CANARY-7f3a9c).*$/s);
  });

  it('lets overrides supply or replace values and pass other options through', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('http://other.test').intercept({ path: '/v4/Sla', method: 'GET' }).reply(200, []);
    const options = clientOptionsFromEnv(
      { MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'pw' },
      { baseUrl: 'http://other.test/v4', parallelism: 2, dispatcher: agent as Dispatcher },
    );
    expect(options).toMatchObject({ baseUrl: 'http://other.test/v4', username: 'demo', password: 'pw', parallelism: 2 });
    const client = clientFromEnv({ MONSYNC_API_USERNAME: 'demo', MONSYNC_API_PASSWORD: 'pw' }, { baseUrl: 'http://other.test/v4', dispatcher: agent as Dispatcher });
    await expect(client.slas.list().toArray()).resolves.toEqual([]);
  });
});
