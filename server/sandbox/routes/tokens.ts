import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";
import { route } from "../router";
import { checkToken, createToken, refreshToken } from "../tokens";

export function tokenRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "getConfig", async () => ({ token_check_enabled: sb.config.tokenCheck }));
  route(app, sb, "createToken", ({ body }) => createToken(sb, sb.config.appKey, body));
  route(app, sb, "checkToken", ({ body }) => checkToken(sb, sb.config.appKey, body));
  route(app, sb, "refreshToken", ({ body }) => refreshToken(sb, sb.config.appKey, body));
}
