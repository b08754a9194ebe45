import { createHash, createHmac, randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT, serializeSubscribeRequest, subscribeMethod, type SubscribeResponse } from "@/server/wire/events/proto";
import type { Fixture } from "./fixture";
import { until } from "../helpers/until";
import { startTrading } from "./trading-helpers";

/**
 * gRPC subscription signing exactly as facts §1.4 describes the official SDKs, implemented here independently of
 * server/wire/events/signature.ts: sorted `k=v` pairs joined with "=", "&" + lower-case hex digest of the request
 * bytes as sent, RFC 3986 percent-encoding, HMAC keyed "secret&", base64.
 */
const KEY = "brokerdesk-demo-key";
const SECRET = "brokerdesk-demo-secret";

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

function sdkSignature(h: Record<string, string>, body: Buffer, secret: string, variant: "sdk" | "old" = "sdk"): string {
  const sha1 = h["x-signature-algorithm"] === "HMAC-SHA1";
  const keys = Object.keys(h).sort();
  const joined = keys.map((k) => `${k.toLowerCase()}=${h[k]}`).join(variant === "sdk" ? "=" : "&");
  let digest = createHash(sha1 ? "md5" : "sha256")
    .update(body)
    .digest("hex");
  if (variant === "old") digest = digest.toUpperCase();
  return createHmac(sha1 ? "sha1" : "sha256", `${secret}&`)
    .update(rfc3986(`${joined}&${digest}`))
    .digest("base64");
}

let f: Fixture;
beforeAll(async () => {
  f = await startTrading({ grpcPort: 0, pingMs: 100 });
}, 60_000);
afterAll(async () => f?.close());

/** Subscribes with hand-made bytes (proto3 defaults left out, as the SDKs serialise) and a hand-made signature. */
function subscribe(opts: { path?: string; algorithm?: string; variant?: "sdk" | "old"; bytes?: Buffer }) {
  const bytes =
    opts.bytes ??
    serializeSubscribeRequest({ subscribeType: 1, timestamp: String(Date.now()), contentType: "", payload: "", accounts: [] });
  const h: Record<string, string> = {
    "x-app-key": KEY,
    "x-signature-algorithm": opts.algorithm ?? "HMAC-SHA256",
    "x-signature-version": "1.0",
    "x-signature-nonce": randomBytes(8).toString("hex"),
    "x-timestamp": new Date().toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(h)) md.set(k, v);
  md.set("x-signature", sdkSignature(h, bytes, SECRET, opts.variant));
  const client = new grpc.Client(`127.0.0.1:${f.sb.grpcPort}`, grpc.credentials.createInsecure());
  const call = client.makeServerStreamRequest<Buffer, SubscribeResponse>(
    opts.path ?? "/grpc.trade.event.EventService/Subscribe",
    (b) => b,
    subscribeMethod().responseDeserialize,
    bytes,
    md,
  );
  const got: { msgs: SubscribeResponse[]; error?: grpc.ServiceError } = { msgs: [] };
  call.on("data", (m: SubscribeResponse) => got.msgs.push(m));
  call.on("error", (e: grpc.ServiceError) => (got.error = e));
  return {
    got,
    close: () => {
      call.cancel();
      client.close();
    },
  };
}

describe("event stream signing (facts §1.4)", () => {
  it.each(["HMAC-SHA256", "HMAC-SHA1"])(
    "an SDK-signed subscription at /grpc.trade.event.EventService/Subscribe is accepted (%s)",
    async (algorithm) => {
      const s = subscribe({ algorithm });
      await until(() => s.got.msgs.find((m) => m.eventType === EVENT.Ping));
      expect(s.got.msgs[0].eventType).toBe(EVENT.SubscribeSuccess);
      expect(s.got.error).toBeUndefined();
      s.close();
    },
  );

  it("the digest covers the bytes as sent: a request with explicit default-valued fields, signed over those bytes, is accepted", async () => {
    // contentType "" encoded explicitly (field 3, length 0): a re-encoding would drop it and hash other bytes.
    const plain = serializeSubscribeRequest({ subscribeType: 1, timestamp: "1", contentType: "", payload: "", accounts: [] });
    const bytes = Buffer.concat([plain, Buffer.from([0x1a, 0x00])]);
    const s = subscribe({ bytes });
    await until(() => s.got.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess) || s.got.error);
    expect(s.got.error).toBeUndefined();
    s.close();
  });

  it("the older name /openapi.EventService/Subscribe is served too", async () => {
    const s = subscribe({ path: "/openapi.EventService/Subscribe" });
    await until(() => s.got.msgs.find((m) => m.eventType === EVENT.SubscribeSuccess));
    s.close();
  });

  it("the old recipe (pairs joined with &, upper-case digest) is refused with UNAUTHENTICATED", async () => {
    const s = subscribe({ variant: "old" });
    await until(() => s.got.error);
    expect(s.got.msgs[0]?.eventType).toBe(EVENT.AuthError);
    expect(s.got.error!.code).toBe(grpc.status.UNAUTHENTICATED);
    s.close();
  });
});
