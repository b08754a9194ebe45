import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";

/**
 * Part 2 of the sandbox (orders, executions, option exercise, events) registers its routes here, from the same
 * OPERATIONS table through route() in ../router.ts, and posts fills through ../ledger.ts
 * (lockCash + availableCash checks, postCash, postPosition, recordActivity with activity_type TRADE).
 */
export function tradingRoutes(app: Hono<HonoEnv>, sb: Sandbox): void {
  void app;
  void sb;
}
