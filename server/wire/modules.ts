import "server-only";
import { isStatusModule, STATUS_MODULES, type StatusModule } from "@/lib/status";
import { isMarketDataPath, OPERATIONS, type Operation, type OperationName } from "./operations";
import { isTradingPath, TRADING_OPERATIONS } from "./trading-operations";

/**
 * Which upstream module (lib/status.ts) each operation and path belongs to: the desk's client records its calls'
 * evidence under it and the sandbox's module switches (`POST /sandbox/modules/{module}`) fail its paths. The token
 * calls belong to no module.
 */
function moduleOf(name: string, op: Operation): StatusModule | undefined {
  if (op.group === "market-data") return "market-data";
  if (op.group === "token") return undefined;
  const r = op.resource;
  if (name === "exerciseOption" || r.startsWith("/broker/instruments/stocks/options/") || r.startsWith("/broker/options/"))
    return "options";
  if (r.startsWith("/broker/accounts/")) return "account";
  if (r.startsWith("/broker/instruments/")) return "instrument";
  if (r.startsWith("/broker/activities/")) return "activities";
  if (r.startsWith("/broker/assets/")) return "assets";
  if (r.startsWith("/broker/orders/")) return "order";
  if (r.startsWith("/broker/funding/")) return "funding";
  if (r.startsWith("/broker/journals/")) return "journals";
  if (r.startsWith("/broker/master-data/")) return "master-data";
  return undefined;
}

// The sandbox reaches the module list through the wire module (its only way into the desk's shared code).
export { isStatusModule, STATUS_MODULES, type StatusModule };

/** The header a status probe carries (unsigned; the upstream ignores it, the sandbox leaves probes out of its call counts). */
export const STATUS_PROBE_HEADER = "x-brokerdesk-probe";

const OPERATION_MODULES = new Map<string, StatusModule>();
const PATH_MODULES = new Map<string, StatusModule>();
for (const [name, op] of Object.entries(OPERATIONS as Record<string, Operation>)) {
  const m = moduleOf(name, op);
  if (!m) continue;
  OPERATION_MODULES.set(name, m);
  for (const p of [op.resource, op.legacy, ...(op.aliases ?? [])]) PATH_MODULES.set(p, m);
}
for (const [name, op] of Object.entries(TRADING_OPERATIONS as Record<string, Operation>)) {
  OPERATION_MODULES.set(name, "trading-api");
  for (const p of [op.resource, op.legacy, ...(op.aliases ?? [])]) if (!PATH_MODULES.has(p)) PATH_MODULES.set(p, "trading-api");
}

export const operationModule = (name: OperationName | string): StatusModule | undefined => OPERATION_MODULES.get(name);

/** A request path's module (exact paths first, then the Market Data and Trading API prefixes). */
export function pathModule(path: string): StatusModule | undefined {
  const exact = PATH_MODULES.get(path);
  if (exact) return exact;
  if (isMarketDataPath(path)) return "market-data";
  if (isTradingPath(path)) return "trading-api";
  return undefined;
}
