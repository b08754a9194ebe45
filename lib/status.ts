/** The upstream modules the status facility watches, and the states a module can be in (shared with the status mails). */
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
export type ModuleState = (typeof MODULE_STATES)[number];

export const isStatusModule = (v: unknown): v is StatusModule => typeof v === "string" && (STATUS_MODULES as readonly string[]).includes(v);

/** What the status page shows of one module; `incidents` and `evidence` only for signed-in staff. */
export interface ModuleStatusView {
  module: StatusModule;
  label: string;
  state: ModuleState;
  since?: string;
  /** 90 UTC days, oldest first: the share of evaluations the module was operational, null without evidence. */
  uptime: { day: string; percent: number | null }[];
  /**
   * Over those days: the share of all evaluations the module was operational (a day weighs by its evaluations, so a
   * blip in the first minutes of a new install is not a whole day's worth), and how long the evaluations cover.
   */
  overall: { percent: number | null; observedMs: number };
  evidence?: string;
  incidents?: IncidentView[];
}

export interface IncidentView {
  id: string;
  state: "degraded" | "outage";
  startedAt: string;
  /** When an incident that opened degraded became an outage. */
  escalatedAt?: string;
  endedAt?: string;
  evidence: string;
}

export interface StatusPageData {
  checkedAt: string;
  evaluatedAt?: string;
  modules: ModuleStatusView[];
  /** Whether the caller sees the details (a signed-in staff member with status:read). */
  detailed: boolean;
}
