import "server-only";
import { checkJson } from "./input-limits";
import type { Hono } from "hono";
import { OPERATIONS, type Operation, type OperationName, type PathStyle } from "@/server/wire/operations";
import type { Ctx, HonoEnv, OpContext, Sandbox } from "./context";
import { illegal } from "./errors";
import { JsonText } from "./paging";

export type OpHandler = (ctx: OpContext) => Promise<unknown>;

/** Parses the raw body captured by the auth middleware. POST bodies are JSON objects; GETs have none. */
export function parseBody(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw illegal("Request body is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw illegal("Request body must be a JSON object.");
  checkJson(parsed);
  return parsed as Record<string, unknown>;
}

/** The handler registered for each operation of an app, so another API family can serve the same operation. */
const registry = new WeakMap<object, Map<string, OpHandler>>();

export function handlerOf(app: Hono<HonoEnv>, name: OperationName): OpHandler {
  const h = registry.get(app)?.get(name);
  if (!h) throw new Error(`no handler registered for ${name}`);
  return h;
}

/**
 * Registers one operation of the shared OPERATIONS table under its resource path, its legacy path and every
 * alias, so the sandbox serves exactly the paths the client calls. Handlers return the response body.
 */
export function route(app: Hono<HonoEnv>, sb: Sandbox, name: OperationName, handler: OpHandler): void {
  const handlers = registry.get(app) ?? new Map<string, OpHandler>();
  registry.set(app, handlers);
  handlers.set(name, handler);
  routeOperation(app, sb, OPERATIONS[name], handler);
}

/** Registers an operation of any family (Broker API OPERATIONS, Trading API TRADING_OPERATIONS) on all its paths. */
export function routeOperation(app: Hono<HonoEnv>, sb: Sandbox, operation: Operation, handler: OpHandler): void {
  const op = operation as { method: "GET" | "POST"; resource: string; legacy: string; aliases?: readonly string[] };
  const paths = new Map<string, PathStyle>([[op.resource, "resource"]]);
  for (const p of [op.legacy, ...(op.aliases ?? [])]) if (!paths.has(p)) paths.set(p, "legacy");
  for (const [path, style] of paths) {
    app.on(op.method, path, async (c) => {
      const body = op.method === "POST" ? parseBody(c.get("rawBody")) : {};
      return jsonResponse(c, await handler({ sb, style, query: c.get("query"), body, c }));
    });
  }
}

/**
 * A 200 JSON response with the request id among its headers, as one plain object: the Node adapter then writes it
 * without building a Headers object (c.json plus a header set afterwards built one per request). A JsonText body,
 * already serialised by the database, is sent as it is.
 */
export function jsonResponse(c: Ctx, result: unknown): Response {
  const text = result instanceof JsonText ? result.text : JSON.stringify(result);
  c.set("requestIdSent", true);
  return new Response(text ?? null, { status: 200, headers: { "content-type": "application/json", "x-request-id": c.get("requestId") } });
}
