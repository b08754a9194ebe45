/** The status facility's modules and states (plain data, shared by the status page, its mail and the server). */
export const STATUS_MODULES = [
  "account",
  "instrument",
  "activities",
  "assets",
  "order",
  "funding",
  "journals",
  "master-data",
  "options",
  "trading-api",
  "market-data",
  "event-stream",
] as const;
export type StatusModule = (typeof STATUS_MODULES)[number];

export const STATUS_MODULE_LABELS: Record<StatusModule, string> = {
  account: "Account",
  instrument: "Instrument",
  activities: "Activities",
  assets: "Assets",
  order: "Order",
  funding: "Funding",
  journals: "Journals",
  "master-data": "Master data",
  options: "Options",
  "trading-api": "Trading API",
  "market-data": "Market Data API",
  "event-stream": "Event stream",
};

export const MODULE_STATES = ["operational", "degraded", "outage", "unknown"] as const;
/** @public the status facility's (server/status) */
export type ModuleState = (typeof MODULE_STATES)[number];
