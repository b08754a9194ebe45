import { OPERATIONS, operationPath, type OperationName, type PathStyle, VERSION_FOR_STYLE } from "@/server/wire/operations";
import { signedHeaders, type SignatureAlgorithm } from "@/server/wire/signing";

/**
 * A tiny signed HTTP caller for sandbox tests (not the app's Broker client). Signs with server/wire/signing.ts
 * and lets a test break any part of a request: drop or override headers, sign one body and send another, etc.
 */
export interface CallOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  /** Exact body text to send (overrides body). */
  rawBody?: string;
  algorithm?: SignatureAlgorithm;
  /** x-version; null = do not send. Default: v3 on resource paths, v2 on legacy ones. */
  version?: string | null;
  /** Access token to send; null = none. Default: the client's current token. */
  token?: string | null;
  now?: Date;
  nonce?: string;
  /** Headers to remove after signing. */
  omit?: string[];
  /** Headers to set after signing (they are not re-signed). */
  headers?: Record<string, string>;
  /** Sign as if the request went to this host. */
  signHost?: string;
  /** Sign this body text instead of the one sent. */
  signBody?: string;
  appSecret?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class SignedClient {
  token: string | undefined;
  constructor(
    readonly baseUrl: string,
    readonly appKey = "brokerdesk-demo-key",
    readonly appSecret = "brokerdesk-demo-secret",
    readonly algorithm: SignatureAlgorithm = "HMAC-SHA256",
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
  async call<T = any>(method: "GET" | "POST", path: string, o: CallOptions = {}): Promise<CallResult<T>> {
    const query = Object.fromEntries(Object.entries(o.query ?? {}).map(([k, v]) => [k, String(v)]));
    const body = o.rawBody ?? (method === "POST" ? JSON.stringify(o.body ?? {}) : undefined);
    const host = new URL(this.baseUrl).host;
    const headers: Record<string, string> = signedHeaders({
      appKey: this.appKey,
      appSecret: o.appSecret ?? this.appSecret,
      algorithm: o.algorithm ?? this.algorithm,
      path,
      query,
      host: o.signHost ?? host,
      body: o.signBody ?? body,
      now: o.now,
      nonce: o.nonce,
    });
    const version = o.version === undefined ? (path.startsWith("/openapi/") ? "v2" : "v3") : o.version;
    if (version !== null) headers["x-version"] = version;
    const token = o.token === undefined ? this.token : o.token;
    if (token) headers["x-access-token"] = token;
    if (body !== undefined) headers["content-type"] = "application/json";
    for (const h of o.omit ?? []) delete headers[h];
    Object.assign(headers, o.headers ?? {});
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.append(k, v);
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** Calls an operation of the shared table in the given path style. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
  op<T = any>(name: OperationName, style: PathStyle, o: CallOptions = {}): Promise<CallResult<T>> {
    const path = operationPath(name, style);
    const method = OPERATIONS[name].method;
    return this.call<T>(method, path, { version: VERSION_FOR_STYLE[style], ...o });
  }

  /** Creates a token (NORMAL at once in demo mode) and uses it from now on. */
  async login(): Promise<string> {
    const res = await this.call("POST", "/openapi/auth/token/create", { body: {}, token: null });
    if (res.status !== 200) throw new Error(`token create failed: ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
    return this.token!;
  }
}

/** Asserts-friendly: the error body of a failed call. */
export const errorOf = (r: CallResult) => ({ status: r.status, code: (r.body as { error_code?: string }).error_code });
