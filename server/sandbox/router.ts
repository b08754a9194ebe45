import "server-only";
import { checkJson } from "./input-limits";
import type { Hono } from "hono";
import { OPERATIONS, type OperationName, type PathStyle } from "@/server/wire/operations";
import type { HonoEnv, OpContext, Sandbox } from "./context";
import { illegal } from "./errors";

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

/**
 * Registers one operation of the shared OPERATIONS table under its resource path, its legacy path and every
 * alias, so the sandbox serves exactly the paths the client calls. Handlers return the response body.
 */
export function route(app: Hono<HonoEnv>, sb: Sandbox, name: OperationName, handler: OpHandler): void {
  const op = OPERATIONS[name] as { method: "GET" | "POST"; resource: string; legacy: string; aliases?: readonly string[] };
  const paths = new Map<string, PathStyle>([[op.resource, "resource"]]);
  for (const p of [op.legacy, ...(op.aliases ?? [])]) if (!paths.has(p)) paths.set(p, "legacy");
  for (const [path, style] of paths) {
    app.on(op.method, path, async (c) => {
      const body = op.method === "POST" ? parseBody(c.get("rawBody")) : {};
      const result = await handler({ sb, style, query: c.get("query"), body, c });
      return c.json(result as object);
    });
  }
}
