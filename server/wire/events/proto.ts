import "server-only";
import path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";

/**
 * The event stream's protobuf service, shared by the sandbox (server) and the desk's consumer (client). The method
 * path is the SDKs' `/grpc.trade.event.EventService/Subscribe`; the sandbox also answers the older
 * `/openapi.EventService/Subscribe`.
 */
// Next bundles server code without import.meta.dirname; the app runs from the project root.
export const PROTO_PATH = path.join(import.meta.dirname ?? path.join(process.cwd(), "server/wire/events"), "events.proto");
export const SUBSCRIBE_PATH = "/grpc.trade.event.EventService/Subscribe";
export const SUBSCRIBE_PATH_ALIASES = ["/openapi.EventService/Subscribe"] as const;
/**
 * SubscribeResponse.eventType values. 0–4 control the stream; above them a message carries an event, as the official
 * SDKs read it (Java `EventType.isTradeEvent`: any code above SubscribeExpired): Order (1024) and Position (1028) are
 * the SDKs' own (PY `webull/trade/events/types.py`, Java `EventType`), 5 (Event) is the sandbox's for the Broker API's
 * other categories, which the SDKs have no code for.
 */
export const EVENT = {
  SubscribeSuccess: 0,
  Ping: 1,
  AuthError: 2,
  NumOfConnExceed: 3,
  SubscribeExpired: 4,
  Event: 5,
  Order: 1024,
  Position: 1028,
} as const;
/** SubscribeResponse.subscribeType of an event, as the SDKs' samples check it beside eventType. */
export const SUBSCRIBE_TYPE = { OrderStatusChanged: 1, PositionStatusChanged: 2 } as const;
/** Whether a message carries an event (any eventType above the control values), whatever its category. */
export const isEventMessage = (eventType: number) => eventType > EVENT.SubscribeExpired;

export interface SubscribeRequest {
  subscribeType: number;
  timestamp: string;
  contentType: string;
  payload: string;
  accounts: string[];
}

export interface SubscribeResponse {
  eventType: number;
  subscribeType: number;
  contentType: string;
  payload: string;
  requestId: string;
  timestamp: string;
}

type Method = grpc.MethodDefinition<SubscribeRequest, SubscribeResponse>;

let cached: Method | undefined;
/** The Subscribe method definition (serializers) from the proto file, loaded once. */
export function subscribeMethod(): Method {
  if (!cached) {
    const def = protoLoader.loadSync(PROTO_PATH, { keepCase: true, longs: String, enums: Number, defaults: true });
    cached = (def["grpc.trade.event.EventService"] as unknown as { Subscribe: Method }).Subscribe;
  }
  return cached;
}

export const serializeSubscribeRequest = (r: SubscribeRequest): Buffer => subscribeMethod().requestSerialize(r);

/** The bytes a request arrived as, kept beside the decoded fields: the signature covers exactly those bytes. */
export const RAW_BYTES = Symbol("raw request bytes");
export type ReceivedSubscribeRequest = SubscribeRequest & { [RAW_BYTES]: Buffer };

/** Service definitions for grpc.Server#addService: the SDKs' path and its aliases, each keeping the raw request. */
export function subscribeServiceDefinitions(): grpc.ServiceDefinition[] {
  const m = subscribeMethod();
  const requestDeserialize = (bytes: Buffer) => Object.assign(m.requestDeserialize(bytes), { [RAW_BYTES]: Buffer.from(bytes) });
  return [SUBSCRIBE_PATH, ...SUBSCRIBE_PATH_ALIASES].map(
    (p) => ({ Subscribe: { ...m, path: p, requestDeserialize } }) as unknown as grpc.ServiceDefinition,
  );
}
