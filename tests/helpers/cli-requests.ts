import { randomBytes } from "node:crypto";
import { sign, SIGNATURE_HEADERS } from "@/cli/src/signing";

/**
 * A command-line request as the `brokerdesk` CLI sends it (signed with cli/src/signing.ts), which a test may break:
 * sign one thing and send another, pick the clock and the nonce, drop a header.
 */
export interface CliRequestOptions {
  key: { id: string; secret: string };
  method?: string;
  url: string;
  body?: unknown;
  /** The session, as `Authorization: Bearer`. */
  session?: string;
  now?: Date;
  nonce?: string;
  /** Sign with this secret instead of the key's. */
  signSecret?: string;
  /** Sign this body text instead of the one sent. */
  signBody?: string;
  /** Sign this path instead of the URL's. */
  signPath?: string;
  omit?: string[];
}

export const newNonce = () => randomBytes(18).toString("base64url");

export function cliRequest(o: CliRequestOptions): Request {
  const url = new URL(o.url);
  const method = o.method ?? (o.body === undefined ? "GET" : "POST");
  const body = o.body === undefined ? undefined : JSON.stringify(o.body);
  const timestamp = String((o.now ?? new Date()).getTime());
  const nonce = o.nonce ?? newNonce();
  const headers: Record<string, string> = {
    [SIGNATURE_HEADERS.key]: o.key.id,
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: sign(o.signSecret ?? o.key.secret, {
      method,
      path: o.signPath ?? url.pathname,
      query: url.search,
      body: o.signBody ?? body,
      timestamp,
      nonce,
    }),
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (o.session) headers.authorization = `Bearer ${o.session}`;
  for (const name of o.omit ?? []) delete headers[name];
  return new Request(url, { method, headers, body });
}
