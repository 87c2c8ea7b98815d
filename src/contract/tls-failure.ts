/**
 * A TLS failure in Node's words, and what fixes it: every client this package runs (the sandbox's
 * notifications, the companion's merchant notifications, the CLI's server-API calls, `doctor`)
 * meets a staging proxy's private CA or self-signed certificate (docs/deploy.md section 7), and
 * each must name the variable that fixes it rather than a bare code. Plain TypeScript, no Node
 * import: the sandbox and the server share it without importing each other.
 */

/** Node's codes for a certificate this process does not trust (a self-signed one, a private CA). */
export const untrustedCertificateCodes: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** The `code` of an error or of one of its causes (fetch wraps the socket's error), or null. */
export function errorCode(error: unknown): string | null {
  let at: unknown = error;
  for (let depth = 0; depth < 5 && at !== null && typeof at === 'object'; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    at = (at as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * What fixes a certificate failure, naming the process that must change (`the sandbox`, `this
 * command`, `the companion`), or null when the failure is not a certificate's.
 */
export function certificateAdvice(error: unknown, whose: string): string | null {
  const code = errorCode(error);
  if (code === null) return null;
  if (untrustedCertificateCodes.has(code)) {
    return `the certificate presented is not trusted by ${whose} (${code}): for a private CA or a self-signed certificate, start ${whose} with NODE_EXTRA_CA_CERTS=<the CA's certificate, PEM> (docs/deploy.md section 7)`;
  }
  if (code === 'CERT_HAS_EXPIRED') return `the certificate presented has expired (${code}): renew it where TLS ends (the proxy)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `the certificate presented does not name this host (${code}): use the host name it was made for, or make one that names it`;
  return null;
}
