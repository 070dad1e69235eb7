import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  InvalidQueryError,
  NetworkError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  connectionProblemOf,
  isUnclearOutcome,
} from './errors.js';
import type * as ErrorsModule from './errors.js';
import { mockApi } from './test-utils/mock-api.js';

const GUID = '11111111-2222-3333-4444-555555555555';

describe('status to error class', () => {
  const cases = [
    [400, ValidationError, 'VALIDATION_FAILED'],
    [401, AuthenticationError, 'AUTHENTICATION_FAILED'],
    [403, PermissionError, 'PERMISSION_DENIED'],
    [404, NotFoundError, 'NOT_FOUND'],
    [409, ConflictError, 'CONFLICT'],
    [500, ServerError, 'SERVER_ERROR'],
    [418, UnexpectedResponseError, 'UNEXPECTED_RESPONSE'],
    [302, UnexpectedResponseError, 'UNEXPECTED_RESPONSE'],
  ] as const;

  it.each(cases)('maps %i to %o with code %s, carrying method, path, status and the service message', async (status, Class, code) => {
    const api = mockApi({ retry: { maxAttempts: 1 } });
    api.reply('GET', `/Sla/${GUID}`, status, { ErrorDescription: `reason ${status}` });
    const error = await api.client.slas.get(GUID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code, method: 'GET', path: `/Sla/${GUID}`, route: '/Sla/{slaGuid}', status, serviceMessage: `reason ${status}` });
    expect((error as Error).message).toContain(`GET /Sla/${GUID} failed with ${status}`);
    expect((error as Error).message).toContain(`reason ${status}`);
  });

  it('maps 429 to RateLimitError once the retries are used up', async () => {
    const api = mockApi({ retry: { maxAttempts: 2 } });
    api.reply('GET', '/Sla', 429, { ErrorDescription: 'slow down' }).times(2);
    const error = await api.client.slas.listPage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, attempts: 2 });
  });

  it('maps 502 to ServerError when retries are disabled', async () => {
    const api = mockApi({ retry: { maxAttempts: 1 } });
    api.reply('GET', '/Sla', 502, 'Bad gateway from the proxy');
    await expect(api.client.slas.listPage()).rejects.toBeInstanceOf(ServerError);
  });

  it('does not mistake one subclass for another', async () => {
    const api = mockApi();
    api.reply('DELETE', `/VaultSection/${GUID}`, 404, { ErrorDescription: 'gone' });
    const error = await api.client.vaultSections.delete(GUID).catch((e: unknown) => e);
    expect(error instanceof NotFoundError).toBe(true);
    expect(error instanceof ValidationError).toBe(false);
    expect(error instanceof ConflictError).toBe(false);
    expect(error instanceof Error).toBe(true);
    expect((error as Error).name).toBe('NotFoundError');
  });
});

describe('the service message', () => {
  it('reads ErrorDescription given as a string', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultItem', 400, { ErrorDescription: 'Name is required' });
    const error = (await api.client.vaultItems.create({ Name: '', VaultSectionGuid: GUID, VaultItemType: 'File' }).catch((e: unknown) => e)) as ApiError;
    expect(error.serviceMessage).toBe('Name is required');
  });

  it('joins ErrorDescription given as an array', async () => {
    const api = mockApi();
    api.reply('POST', '/Sla', 403, { ErrorDescription: ['UptimeErrorThreshold must be below 100', 'Description is required'] });
    const error = (await api.client.slas.create({ Description: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.serviceMessage).toBe('UptimeErrorThreshold must be below 100; Description is required');
    expect(error.message).toContain('Description is required');
  });

  it('reads the published MessageList: every message, in order, never the JSON', async () => {
    const api = mockApi();
    const body = { Messages: [{ Message: 'Name is required' }, { Message: 'MonitorType is not valid' }] };
    api.reply('POST', '/Monitor', 400, body);
    const error = (await api.client.monitors.create({ Name: '', MonitorType: 'Https' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.serviceMessage).toBe('Name is required; MonitorType is not valid');
    expect(error.message).toBe('POST /Monitor failed with 400 Bad Request: Name is required; MonitorType is not valid');
    expect(error.message).not.toContain('{');
    expect(error.response).toMatchObject({ url: 'http://api.test/v4/Monitor', status: 400, body });
  });

  it('reads a bare {Message} body (MessageInfo) as the message', async () => {
    const api = mockApi();
    api.reply('GET', `/Statistics/Monitor/${GUID}`, 404, { Message: 'Monitor not found' });
    const error = (await api.client.statistics.monitor(GUID).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.serviceMessage).toBe('Monitor not found');
  });

  it('keeps the redacted request and the cause beside the unpacked message', async () => {
    const api = mockApi();
    api.reply('POST', '/VaultItem', 403, { Messages: [{ Message: 'no Change authorization on the section' }] });
    const error = (await api.client.vaultItems.create({ Name: 'n', VaultSectionGuid: GUID, VaultItemType: 'CredentialSet', Password: 'CANARY-msglist-secret' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(PermissionError);
    expect(error.serviceMessage).toBe('no Change authorization on the section');
    expect(error.request).toMatchObject({ method: 'POST', url: 'http://api.test/v4/VaultItem', body: { Password: '[redacted]' } });
    expect(JSON.stringify(error.request)).not.toContain('CANARY-msglist-secret');
  });

  it('has no service message when the body is empty', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${GUID}`, 404);
    const error = (await api.client.monitors.get(GUID).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.serviceMessage).toBeUndefined();
    expect(error.message).toBe(`GET /Monitor/${GUID} failed with 404 Not Found`);
  });

  it('keeps the raw text when the body is not JSON', async () => {
    const api = mockApi({ retry: { maxAttempts: 1 } });
    api.reply('GET', `/Monitor/${GUID}`, 500, '<html><body>Internal failure</body></html>', { 'content-type': 'text/html' });
    const error = (await api.client.monitors.get(GUID).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.serviceMessage).toBe('<html><body>Internal failure</body></html>');
    expect(error.response?.body).toBe('<html><body>Internal failure</body></html>');
  });

  it('falls back to other message fields, then to the JSON text, for differently shaped bodies', async () => {
    const api = mockApi();
    api.reply('GET', '/Sla', 400, { ResponseStatus: { ErrorCode: 'X', Message: 'from ResponseStatus' } });
    api.reply('GET', '/Operator', 400, { Detail: 'unexpected shape' });
    const first = (await api.client.slas.listPage().catch((e: unknown) => e)) as ApiError;
    const second = (await api.client.operators.listPage().catch((e: unknown) => e)) as ApiError;
    expect(first.serviceMessage).toBe('from ResponseStatus');
    expect(second.serviceMessage).toBe('{"Detail":"unexpected shape"}');
  });

  it('reports a success body that is not JSON as UnexpectedResponseError', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${GUID}`, 200, 'not json at all', { 'content-type': 'text/plain' });
    const error = (await api.client.monitors.get(GUID).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toContain('not JSON');
  });

  it('reports a list body of the wrong shape as UnexpectedResponseError', async () => {
    const api = mockApi();
    api.reply('GET', '/VaultItem', 200, { Items: [] });
    await expect(api.client.vaultItems.list().toArray()).rejects.toThrow(/expected a JSON array or a \{Data, Cursors\} envelope/);
  });
});

describe('instanceof across duplicate installs', () => {
  it('recognises errors built by a second copy of the module', async () => {
    // A query suffix makes the bundler load a separate module instance, as a second install would.
    const specifier = './errors.js?duplicate';
    const copy = (await import(specifier)) as typeof ErrorsModule;
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = new copy.NotFoundError({ method: 'GET', path: '/Sla/x', status: 404 });
    expect(foreign instanceof NotFoundError).toBe(true);
    expect(foreign instanceof ApiError).toBe(true);
    expect(foreign instanceof ConflictError).toBe(false);
    const local = new ConflictError({ method: 'POST', path: '/Sla', status: 409 });
    expect(local instanceof copy.ConflictError).toBe(true);
    expect(local instanceof copy.ApiError).toBe(true);
    expect(local instanceof copy.NotFoundError).toBe(false);
  });

  it('does not accept look-alike objects without the brand', () => {
    expect({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404 } instanceof NotFoundError).toBe(false);
    expect(new Error('x') instanceof ApiError).toBe(false);
    const nothing: unknown = null;
    expect(nothing instanceof ApiError).toBe(false);
  });
});

describe('isUnclearOutcome', () => {
  const base = { method: 'POST', path: '/Monitor' };
  it('is true for network failures, timeouts and 5xx', () => {
    expect(isUnclearOutcome(new NetworkError({ ...base, status: 0 }))).toBe(true);
    expect(isUnclearOutcome(new TimeoutError({ ...base, status: 0 }))).toBe(true);
    expect(isUnclearOutcome(new ServerError({ ...base, status: 503 }))).toBe(true);
  });
  it('is false for answers that say the write did not happen, and for non-API errors', () => {
    expect(isUnclearOutcome(new ValidationError({ ...base, status: 400 }))).toBe(false);
    expect(isUnclearOutcome(new ConflictError({ ...base, status: 409 }))).toBe(false);
    expect(isUnclearOutcome(new InvalidQueryError({ ...base, status: 0 }))).toBe(false);
    expect(isUnclearOutcome(new Error('boom'))).toBe(false);
  });
});

describe('connectionProblemOf', () => {
  const base = { method: 'GET', path: '/Monitor' };
  it('tells a refused login and an unreachable service apart, also when wrapped as the cause of another error', () => {
    expect(connectionProblemOf(new AuthenticationError({ ...base, status: 401 }))).toBe('credentials');
    expect(connectionProblemOf(new NetworkError({ ...base, status: 0 }))).toBe('unreachable');
    expect(connectionProblemOf(new TimeoutError({ ...base, status: 0 }))).toBe('unreachable');
    const wrapped = new Error('reading monitors failed', { cause: new Error('listing', { cause: new AuthenticationError({ ...base, status: 401 }) }) });
    expect(connectionProblemOf(wrapped)).toBe('credentials');
  });
  it('is undefined for every other answer and for errors of no request', () => {
    expect(connectionProblemOf(new PermissionError({ ...base, status: 403 }))).toBeUndefined();
    expect(connectionProblemOf(new ServerError({ ...base, status: 503 }))).toBeUndefined();
    expect(connectionProblemOf(new Error('boom'))).toBeUndefined();
    expect(connectionProblemOf('plain')).toBeUndefined();
  });
});

describe('toJSON', () => {
  it('has only safe summary fields', async () => {
    const api = mockApi();
    api.reply('GET', `/Monitor/${GUID}`, 404, { ErrorDescription: 'no such monitor' });
    const error = await api.client.monitors.get(GUID).catch((e: unknown) => e);
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['attempts', 'code', 'message', 'method', 'name', 'path', 'route', 'serviceMessage', 'status']);
    expect(json).toMatchObject({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404, serviceMessage: 'no such monitor' });
  });
});
