import { createClient, type ClientOptions, type MonitoringClient } from './client.js';
import { ClientConfigError } from './errors.js';

export const ENV_VARIABLES = {
  baseUrl: 'MONSYNC_API_URL',
  username: 'MONSYNC_API_USERNAME',
  password: 'MONSYNC_API_PASSWORD',
} as const;

const HINTS: Record<keyof typeof ENV_VARIABLES, string> = {
  baseUrl: 'the API root, e.g. http://127.0.0.1:8080/v4',
  username: 'the API account user name, from /Register or the API management tab',
  password: 'the API account password',
};

/**
 * Client options from `MONSYNC_API_URL`, `MONSYNC_API_USERNAME` and `MONSYNC_API_PASSWORD`. `overrides` win
 * over the environment (and can supply any of the three). Every missing variable is named in one error.
 */
export function clientOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<ClientOptions> = {},
): ClientOptions {
  const missing: string[] = [];
  const pick = (key: keyof typeof ENV_VARIABLES): string => {
    const given = overrides[key];
    if (typeof given === 'string' && given !== '') return given;
    const value = env[ENV_VARIABLES[key]]?.trim();
    if (value === undefined || value === '') {
      missing.push(`${ENV_VARIABLES[key]} (${HINTS[key]})`);
      return '';
    }
    return value;
  };
  const baseUrl = pick('baseUrl');
  const username = pick('username');
  const password = pick('password');
  if (missing.length > 0) {
    throw new ClientConfigError(`missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join('; ')}`);
  }
  return { ...overrides, baseUrl, username, password };
}

export function clientFromEnv(env: Readonly<Record<string, string | undefined>> = process.env, overrides: Partial<ClientOptions> = {}): MonitoringClient {
  return createClient(clientOptionsFromEnv(env, overrides));
}
