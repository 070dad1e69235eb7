/** An error that becomes an HTTP error response `{ ErrorDescription }`. */
export class ApiRequestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly descriptions: string[];
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, descriptions: string | string[], headers: Record<string, string> = {}) {
    const list = Array.isArray(descriptions) ? descriptions : [descriptions];
    super(list.join('; '));
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.descriptions = list;
    this.headers = headers;
  }

  toBody(): { ErrorDescription: string | string[] } {
    return { ErrorDescription: this.descriptions.length === 1 ? (this.descriptions[0] ?? '') : this.descriptions };
  }
}

export const badRequest = (d: string | string[]): ApiRequestError => new ApiRequestError(400, 'BAD_REQUEST', d);
export const unauthorized = (d: string): ApiRequestError =>
  new ApiRequestError(401, 'UNAUTHORIZED', d, { 'WWW-Authenticate': 'Basic realm="monsync-emulator"' });
export const forbidden = (d: string | string[]): ApiRequestError => new ApiRequestError(403, 'FORBIDDEN', d);
export const notFound = (d: string): ApiRequestError => new ApiRequestError(404, 'NOT_FOUND', d);
/** SLA and ScheduledReport validation errors (spec, Errors: 403 "one or more validation errors"). */
export const validationFailed = (d: string | string[]): ApiRequestError => new ApiRequestError(403, 'VALIDATION_FAILED', d);
export const conflict = (d: string): ApiRequestError => new ApiRequestError(409, 'CONFLICT', d);

/** Raised for a bad state file, bad CLI flags or bad control input (never sent to API clients as is). */
export class EmulatorConfigError extends Error {
  readonly code = 'EMULATOR_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'EmulatorConfigError';
  }
}
