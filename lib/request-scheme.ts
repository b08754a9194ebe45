/**
 * The scheme the client used: the first value of X-Forwarded-Proto (a proxy behind another appends its own, so
 * "https, http" reached the outermost over HTTPS) when it is `http` or `https`, else the request's own protocol.
 * No imports: the proxy (auth.config.ts, proxy.ts) and route handlers (server/tools/http.ts) share it.
 */
export function requestScheme(request: Request): "http" | "https" {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded === "http" || forwarded === "https") return forwarded;
  return new URL(request.url).protocol === "https:" ? "https" : "http";
}
