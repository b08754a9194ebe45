import "server-only";
import * as grpc from "@grpc/grpc-js";
import { newNonce, signingTimestamp, SIGNATURE_VERSION, type SignatureAlgorithm } from "@/server/broker/signing";
import { loadEventProto, serializeRequest } from "./grpc-server";
import { signSubscription } from "./signature";

/**
 * A signed EventService.Subscribe call (facts §1.4), for tests, the bench and any Node caller of the event stream.
 * The signature covers the serialized request bytes, so the request is built here and signed as sent.
 */
export interface SubscribeOptions {
  target: string;
  appKey: string;
  appSecret: string;
  algorithm?: SignatureAlgorithm;
  /** JSON payload: {last_event_id?, event_types?} */
  payload?: Record<string, unknown>;
  accounts?: string[];
  subscribeType?: number;
}

export interface SubscribeMessage {
  eventType: number;
  subscribeType: number;
  contentType: string;
  payload: string;
  requestId: string;
  timestamp: string;
}

export function openSubscription(o: SubscribeOptions): { call: grpc.ClientReadableStream<SubscribeMessage>; close(): void } {
  const request = {
    subscribeType: o.subscribeType ?? 1, timestamp: String(Date.now()), contentType: "application/json",
    payload: JSON.stringify(o.payload ?? {}), accounts: o.accounts ?? [],
  };
  const headers: Record<string, string> = {
    "x-app-key": o.appKey, "x-timestamp": signingTimestamp(), "x-signature-version": SIGNATURE_VERSION,
    "x-signature-algorithm": o.algorithm ?? "HMAC-SHA256", "x-signature-nonce": newNonce(),
  };
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) md.set(k, v);
  md.set("x-signature", signSubscription(headers, serializeRequest(request), o.appSecret));
  const client = new (loadEventProto().openapi.EventService)(o.target, grpc.credentials.createInsecure());
  const call = (client as unknown as { Subscribe(r: unknown, m: grpc.Metadata): grpc.ClientReadableStream<SubscribeMessage> }).Subscribe(request, md);
  return {
    call,
    close: () => {
      call.cancel();
      client.close();
    },
  };
}
