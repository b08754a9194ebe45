import "server-only";
import type { z } from "zod";
import { can, type Permission } from "@/lib/auth/permissions";
import { ENROL_FIRST, mustEnrolFirst } from "@/server/auth/enrolment";
import { currentStaff, type Staff } from "@/server/auth/guard";
import { errorJson, errorResponse } from "./errors";

/**
 * Route handlers are declared, not hand-written: `export const GET = jsonRoute({ permission, params }, work)`.
 * The helper checks the session (401) and the permission (403), parses the parameters (400), runs the work and
 * answers JSON without caching, or maps the failure (errorResponse: 404 for a domain not-found, 429/502 for the
 * upstream, 500). CSV exports: csvRoute (./csv.ts), which also audits them.
 */
export type PathParams = Record<string, string | string[] | undefined>;

/** What Next passes a route handler besides the request. */
export interface NextRouteContext {
  params: Promise<PathParams>;
}

/** A zod schema over the query and the path segments together, or a parser of them (lib/schemas' URL parsers). */
export type ParamsSpec<P> = z.ZodType<P> | ((query: URLSearchParams, path: PathParams) => P);

export interface RouteSpec<P> {
  permission: Permission;
  params?: ParamsSpec<P>;
}

export interface RouteContext<P> {
  staff: Staff;
  params: P;
  request: Request;
}

export type RouteHandler = (request: Request, context: NextRouteContext) => Promise<Response>;

/**
 * The handler with its own time on every answer: `Server-Timing: app;dur=<ms>`, from the handler's start to the answer
 * it returns (for a stream, its head: a CSV's first rows are read before answering). Browsers show it in their network
 * panel; `npm run load` reads it as the server's time of a request. A passed-through answer whose headers are
 * immutable goes out without it.
 */
export function timed(handler: RouteHandler): RouteHandler {
  return async (request, context) => {
    const started = performance.now();
    const response = await handler(request, context);
    try {
      response.headers.append("server-timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
    } catch {
      // immutable headers (a response passed through as it came)
    }
    return response;
  };
}

export function parseParams<P>(spec: ParamsSpec<P> | undefined, request: Request, path: PathParams): P {
  const query = new URL(request.url).searchParams;
  if (!spec) return undefined as P;
  if (typeof spec === "function") return spec(query, path);
  return spec.parse({ ...Object.fromEntries(query), ...path });
}

/**
 * The signed-in staff user allowed to call the route, or the 401/403 answer (with the user and the code, for a
 * denial): 403 ENROL_FIRST while their role requires two-factor sign-in and they have not enrolled, whatever the
 * permission (server/auth/enrolment.ts), 403 FORBIDDEN without the permission.
 */
export async function authorize(
  permission: Permission,
): Promise<{ staff: Staff } | { response: Response; denied?: Staff; code?: "ENROL_FIRST" | "FORBIDDEN" }> {
  const staff = await currentStaff();
  if (!staff) return { response: errorJson(401, { error: "UNAUTHENTICATED", message: "Sign in first." }) };
  if (await mustEnrolFirst(staff)) {
    return { response: errorJson(403, { error: ENROL_FIRST.code, message: ENROL_FIRST.message }), denied: staff, code: ENROL_FIRST.code };
  }
  if (!can(staff, permission)) {
    return {
      response: errorJson(403, { error: "FORBIDDEN", message: "You do not have permission to do this." }),
      denied: staff,
      code: "FORBIDDEN",
    };
  }
  return { staff };
}

/** A guarded GET answering JSON: the work's result (or its own Response), never cached. */
export function jsonRoute<P = undefined>(spec: RouteSpec<P>, work: (ctx: RouteContext<P>) => Promise<unknown>): RouteHandler {
  return timed(async (request, context) => {
    const auth = await authorize(spec.permission);
    if ("response" in auth) return auth.response;
    try {
      const params = parseParams(spec.params, request, (await context?.params) ?? {});
      const result = await work({ staff: auth.staff, params, request });
      if (result instanceof Response) return result;
      return Response.json(result, { headers: { "cache-control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  });
}

/**
 * A route that may also answer signed-out callers, when `open()` says so (a setting): `work` gets the staff member
 * the permission allows, or null for a signed-out caller. A signed-in caller without the permission gets 403.
 */
export function openJsonRoute(
  spec: { permission: Permission; open: () => boolean },
  work: (staff: Staff | null) => Promise<unknown>,
): RouteHandler {
  return timed(async () => {
    const anonymous = !(await currentStaff()) && spec.open();
    let staff: Staff | null = null;
    if (!anonymous) {
      const auth = await authorize(spec.permission);
      if ("response" in auth) return auth.response;
      staff = auth.staff;
    }
    try {
      return Response.json(await work(staff), { headers: { "cache-control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  });
}
