import "server-only";
import * as grpc from "@grpc/grpc-js";
import { newNonce, signingTimestamp, SIGNATURE_VERSION, type SignatureAlgorithm } from "@/server/wire/signing";
import { serializeSubscribeRequest, subscribeMethod, SUBSCRIBE_PATH, type SubscribeResponse } from "./proto";
import { signSubscription } from "./signature";

/**
 * A signed EventService.Subscribe call (facts §1.4), for the desk's event consumer, the tests and the bench. The
 * request is serialised once and those bytes are both signed and sent, so the signature covers what goes on the wire.
 */
export interface SubscribeOptions {
  /** host:port of the event service. */
  target: string;
  appKey: string;
  appSecret: string;
  algorithm?: SignatureAlgorithm;
  /** TLS (the real upstream) or plaintext (the embedded sandbox). */
  tls?: boolean;
  /** JSON payload: {last_event_id?, event_types?} */
  payload?: Record<string, unknown>;
  accounts?: string[];
  subscribeType?: number;
  /** Method path; default the SDKs' `/grpc.trade.event.EventService/Subscribe`. */
  path?: string;
}

export type SubscribeMessage = SubscribeResponse;

export interface Subscription {
  call: grpc.ClientReadableStream<SubscribeMessage>;
  close(): void;
}

export function openSubscription(o: SubscribeOptions): Subscription {
  const bytes = serializeSubscribeRequest({
    subscribeType: o.subscribeType ?? 1,
    timestamp: String(Date.now()),
    contentType: "application/json",
    payload: JSON.stringify(o.payload ?? {}),
    accounts: o.accounts ?? [],
  });
  const headers: Record<string, string> = {
    "x-app-key": o.appKey,
    "x-timestamp": signingTimestamp(),
    "x-signature-version": SIGNATURE_VERSION,
    "x-signature-algorithm": o.algorithm ?? "HMAC-SHA256",
    "x-signature-nonce": newNonce(),
  };
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) md.set(k, v);
  md.set("x-signature", signSubscription(headers, bytes, o.appSecret));
  const client = new grpc.Client(o.target, o.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure());
  const call = client.makeServerStreamRequest<Buffer, SubscribeMessage>(
    o.path ?? SUBSCRIBE_PATH,
    (b) => b,
    subscribeMethod().responseDeserialize,
    bytes,
    md,
  );
  return {
    call,
    close: () => {
      call.cancel();
      client.close();
    },
  };
}
