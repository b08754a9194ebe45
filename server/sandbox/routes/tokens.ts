import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";
import { route } from "../router";
import { checkToken, createToken, refreshToken } from "../tokens";

export function tokenRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "getConfig", async () => ({ token_check_enabled: sb.config.tokenCheck }));
  route(app, sb, "createToken", ({ body, c }) => createToken(sb, c.get("principal").appKey, body));
  route(app, sb, "checkToken", ({ body, c }) => checkToken(sb, c.get("principal").appKey, body));
  route(app, sb, "refreshToken", ({ body, c }) => refreshToken(sb, c.get("principal").appKey, body));
}
