/** Pragmatic address check: one `@`, no spaces, a dotted domain. Full RFC 5322 is not what users mean. */
export const EMAIL_PATTERN = /^[^\s@"<>()[\],;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
