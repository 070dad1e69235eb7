/**
 * Operator fields as the service speaks them (published definition, "Operator fields"): settings that take effect
 * only with their `...Specified: true` companion, and settings GET does not reliably return.
 */

/** Fields applied only when sent with `<field>Specified: true`. */
export const SPECIFIED_COMPANION_FIELDS = ['CultureName', 'TimeZoneId', 'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon', 'OutgoingPhoneNumberId'] as const;

/** Fields the service takes on writes but does not return on GET: they cannot be compared with what is live. */
export const OPERATOR_WRITE_ONLY_FIELDS = ['CultureName', 'UseNumericSender', 'AllowNativeLogin', 'AllowSingleSignon'] as const;

/**
 * The body with `<field>Specified: true` beside every companion field it holds (an explicit `false` companion the
 * caller wrote is kept). Returns the body itself when it holds none.
 */
export function withSpecifiedCompanions<T extends Record<string, unknown>>(body: T): T {
  let out: Record<string, unknown> | undefined;
  for (const field of SPECIFIED_COMPANION_FIELDS) {
    const companion = `${field}Specified`;
    if (body[field] === undefined || body[companion] !== undefined) continue;
    out ??= { ...body };
    out[companion] = true;
  }
  return (out ?? body) as T;
}
