/**
 * The security headers of every page (set by proxy.ts): a Content-Security-Policy whose scripts run only with this
 * response's nonce (Next puts it on its own scripts; no 'unsafe-inline' for scripts), no framing, no MIME sniffing,
 * a strict referrer, and HSTS when the desk is served over HTTPS. Inline style attributes stay allowed (React sets
 * them; they cannot run code).
 */
export function securityHeaders(o: { nonce: string; https: boolean; dev: boolean }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${o.nonce}' 'strict-dynamic'${o.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
    ...(o.https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
