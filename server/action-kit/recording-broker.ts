import "server-only";
import { isBrokerError, type BrokerClient } from "@/server/broker";
import type { RequestOptions } from "@/server/broker/client";

/** What the upstream calls of an action tell its audit entry. */
export interface UpstreamNotes {
  upstreamRequestId?: string;
  idempotencyKey?: string;
}

/** The client id that makes a call idempotent upstream, when the call carries one. */
export function idempotencyKeyOf(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return undefined;
  const o = input as Record<string, unknown>;
  for (const key of ["client_request_id", "client_combo_order_id", "client_order_id"]) {
    if (typeof o[key] === "string" && o[key]) return o[key] as string;
  }
  const orders = o.new_orders ?? o.modify_orders;
  return Array.isArray(orders) ? idempotencyKeyOf(orders[0]) : undefined;
}

/**
 * `ctx.broker` of an action: the process client, with every call observed. The upstream request id of each answer
 * (x-request-id, or the failed call's BrokerError.requestId) and the first idempotency key are written into the
 * audit notes, so no action wires `onResponse` by hand. Several calls: their request ids, space-separated.
 */
export function recordingBroker(client: BrokerClient, notes: UpstreamNotes): BrokerClient {
  const ids: string[] = [];
  const record = (requestId: string | undefined) => {
    if (!requestId || ids.includes(requestId)) return;
    ids.push(requestId);
    notes.upstreamRequestId = ids.join(" ");
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value; // config, tokens, transport
      return async (input?: unknown, ro: RequestOptions = {}) => {
        notes.idempotencyKey ??= idempotencyKeyOf(input);
        try {
          return await value.call(target, input, {
            ...ro,
            onResponse: (info: Parameters<NonNullable<RequestOptions["onResponse"]>>[0]) => {
              record(info.requestId);
              ro.onResponse?.(info);
            },
          });
        } catch (error) {
          if (isBrokerError(error)) record(error.requestId);
          throw error;
        }
      };
    },
  });
}
