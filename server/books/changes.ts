import "server-only";

/**
 * What one stored event means for the read model, as plain data: pure functions, no database. The projector
 * (project.ts) folds these into rows; the same function serves the upstream's events, the desk's snapshots of a
 * detail call and the desk's own submissions, so a rebuild from the stored events gives the same read model.
 */
export interface Envelope {
  id: string;
  event_type: string;
  timestamp?: string;
  account_id?: string;
  payload: Record<string, unknown>;
}

export type Source = "stream" | "snapshot" | "desk";

/** Event types the desk writes itself (source snapshot or desk). */
export const DESK_EVENT_TYPES = ["ORDER_SNAPSHOT", "MOVEMENT_SNAPSHOT", "DESK_ORDER", "DESK_MOVEMENT"] as const;
export const UPSTREAM_EVENT_TYPES = ["ACCOUNT", "INSTRUMENT", "CORPORATE_ACTION", "TRADE", "FUNDING", "JOURNAL", "MASTER_DATA"] as const;
const KNOWN_TYPES: readonly string[] = [...UPSTREAM_EVENT_TYPES, ...DESK_EVENT_TYPES];

export const ORDER_COLUMNS = [
  "order_id",
  "combo_type",
  "client_combo_order_id",
  "symbol",
  "market",
  "instrument_type",
  "category",
  "instrument_id",
  "side",
  "order_type",
  "time_in_force",
  "expire_date",
  "entrust_type",
  "trading_session",
  "quantity",
  "total_cash_amount",
  "filled_quantity",
  "avg_filled_price",
  "limit_price",
  "stop_price",
  "option_strategy",
  "legs",
  "status",
  "reason",
  "commission",
  "receivable_commission",
  "fees",
  "placed_at",
  "filled_at",
  "submitted_by",
] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];
export type OrderFields = Partial<Record<OrderColumn, unknown>>;

export interface ExecutionChange {
  execution_key: string;
  order_id?: string;
  symbol?: string;
  side?: string;
  quantity: string;
  price: string;
  commission?: string;
  receivable_commission?: string;
  fees?: unknown;
  filled_at: string;
}

export interface OrderChange {
  kind: "order";
  account_id: string;
  client_order_id: string;
  scene: string;
  at: string;
  fields: OrderFields;
  /** A detail call should complete the row (the event carries no prices, or they changed). */
  wantDetail: boolean;
  /** A snapshot is the whole truth: its fields replace the row's, and no detail call is wanted after it. */
  snapshot: boolean;
  execution?: ExecutionChange;
}

export const MOVEMENT_COLUMNS = [
  "request_id",
  "account_id",
  "from_account",
  "to_account",
  "direction",
  "amount",
  "currency",
  "to_amount",
  "to_currency",
  "fx_rate",
  "instrument_type",
  "market",
  "symbol",
  "quantity",
  "status",
  "reason",
  "requested_by",
] as const;
export type MovementColumn = (typeof MOVEMENT_COLUMNS)[number];

export const MOVEMENT_KINDS = ["CASH_JOURNAL", "POSITION_JOURNAL", "INSTANT_FUNDING", "FX_EXCHANGE", "INSTANT_EXCHANGE"] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];
export const FINAL_MOVEMENT_STATUSES = ["COMPLETED", "CANCELED", "REJECTED", "FAILED"] as const;
/**
 * Statuses the desk gives a movement an approval rule held (server/approvals): it has not been sent (awaiting), or
 * never will be (declined, withdrawn, expired). The upstream knows none of them, so reconciliation asks nothing.
 */
export const DESK_ONLY_MOVEMENT_STATUSES = ["AWAITING_APPROVAL", "DECLINED", "WITHDRAWN", "EXPIRED"] as const;

export interface MovementChange {
  kind: "movement";
  movement: MovementKind;
  client_request_id: string;
  at: string;
  fields: Partial<Record<MovementColumn, unknown>>;
}

/** A change that has no table of its own but that open pages care about (an account was created or updated…). */
export interface NoticeChange {
  kind: "notice";
  topic: "account" | "instrument" | "master-data";
  account_id?: string;
}

export type Change = OrderChange | MovementChange | NoticeChange;

export interface Interpretation {
  outcome: "projected" | "stored" | "unknown";
  changes: Change[];
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);

/** A decimal as a string, or undefined: numbers are converted once here, anything else is dropped. */
const dec = (v: unknown): string | undefined => {
  const s = str(v);
  return s !== undefined && /^-?\d+(\.\d+)?$/.test(s) ? s : undefined;
};

/** ISO-8601 with a `+0000` offset (the upstream's trade times) or epoch ms, to ISO; undefined when unparseable. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === "number" || (typeof v === "string" && /^\d{12,}$/.test(v))) {
    const d = new Date(Number(v));
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  const s = str(v);
  if (!s) return undefined;
  const d = new Date(s.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Trailing zeros dropped, so "3" and "3.000" name the same quantity in a key. */
const canonical = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

export function executionKey(accountId: string, clientOrderId: string, filledAt: string, quantity: string, price: string): string {
  return [accountId, clientOrderId, filledAt, canonical(quantity), canonical(price)].join("|");
}

function categoryParts(category: string | undefined): { instrument_type?: string; market?: string } {
  if (!category) return {};
  const [market, kind] = category.split("_");
  return { market, instrument_type: kind === "OPTION" ? "OPTION" : kind === "STOCK" ? "EQUITY" : undefined };
}

const defined = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

const FILL_SCENES = ["FILLED", "FINAL_FILLED"];
/** Scenes after which the order's prices or quantities may differ from what the desk knows. */
const DETAIL_SCENES = ["MODIFY_SUCCESS"];

function tradeChange(p: Record<string, unknown>, at: string): OrderChange | undefined {
  const account_id = str(p.account_id);
  const client_order_id = str(p.client_order_id);
  if (!account_id || !client_order_id) return undefined;
  const scene = str(p.scene_type) ?? "UNKNOWN";
  const fill = FILL_SCENES.includes(scene);
  const category = str(p.category);
  const fields: OrderFields = defined({
    order_id: str(p.order_id),
    combo_type: str(p.combo_type),
    symbol: str(p.symbol),
    category,
    ...categoryParts(category),
    instrument_id: str(p.instrument_id),
    side: str(p.side),
    order_type: str(p.order_type),
    quantity: dec(p.qty),
    status: str(p.order_status),
    reason: str(p.reason),
    // A fill's filled_qty and filled_price are the execution's; other scenes carry the order's totals.
    filled_quantity: fill ? undefined : dec(p.filled_qty),
    avg_filled_price: fill ? undefined : dec(p.filled_price),
  });
  const change: OrderChange = {
    kind: "order",
    account_id,
    client_order_id,
    scene,
    at,
    fields,
    wantDetail: DETAIL_SCENES.includes(scene),
    snapshot: false,
  };
  const quantity = dec(p.filled_qty);
  const price = dec(p.filled_price);
  const filledAt = isoTime(p.filled_time) ?? at;
  if (fill && quantity && price) {
    change.execution = {
      execution_key: executionKey(account_id, client_order_id, filledAt, quantity, price),
      order_id: str(p.order_id),
      symbol: str(p.symbol),
      side: str(p.side),
      quantity,
      price,
      commission: dec(p.actual_commission),
      receivable_commission: dec(p.receivable_commission),
      fees: Array.isArray(p.fees) ? p.fees : undefined,
      filled_at: filledAt,
    };
    change.fields.filled_at = filledAt;
  }
  return change;
}

/** An order detail (the client's parsed Order, plus account_id and the group's client_combo_order_id). */
function orderSnapshotChange(p: Record<string, unknown>, at: string): OrderChange | undefined {
  const account_id = str(p.account_id);
  const client_order_id = str(p.client_order_id);
  if (!account_id || !client_order_id) return undefined;
  const commission = (p.commission ?? {}) as Record<string, unknown>;
  const fields: OrderFields = {
    order_id: str(p.order_id),
    combo_type: str(p.combo_type),
    client_combo_order_id: str(p.client_combo_order_id),
    symbol: str(p.symbol),
    market: str(p.market),
    instrument_type: str(p.instrument_type),
    side: str(p.side),
    order_type: str(p.order_type),
    time_in_force: str(p.time_in_force),
    expire_date: str(p.expire_date),
    entrust_type: str(p.entrust_type),
    trading_session: str(p.support_trading_session),
    quantity: dec(p.total_quantity),
    total_cash_amount: dec(p.total_cash_amount),
    filled_quantity: dec(p.filled_quantity) ?? "0",
    avg_filled_price: dec(p.filled_price),
    limit_price: dec(p.limit_price),
    stop_price: dec(p.stop_price),
    option_strategy: str(p.option_strategy),
    legs: Array.isArray(p.legs) && p.legs.length ? p.legs : undefined,
    status: str(p.status),
    reason: str(p.reason),
    commission: dec(commission.actual_commission),
    receivable_commission: dec(commission.receivable_commission),
    fees: Array.isArray(p.fees) ? p.fees : undefined,
    placed_at: isoTime(p.placed_at),
    filled_at: isoTime(p.filled_at),
  };
  return { kind: "order", account_id, client_order_id, scene: "SNAPSHOT", at, fields: defined(fields), wantDetail: false, snapshot: true };
}

const MOVEMENT_OF_BIZ: Record<string, MovementKind> = {
  CASH_JOURNAL: "CASH_JOURNAL",
  POSITION_JOURNAL: "POSITION_JOURNAL",
  INSTANT_FUNDING: "INSTANT_FUNDING",
  EXCHANGE: "FX_EXCHANGE",
  FX_EXCHANGE: "FX_EXCHANGE",
  INSTANT_EXCHANGE: "INSTANT_EXCHANGE",
};

/** A funding or journal event, a detail snapshot, or a desk submission of one movement. */
function movementChange(p: Record<string, unknown>, at: string): MovementChange | undefined {
  const movement = MOVEMENT_OF_BIZ[str(p.movement_kind) ?? str(p.biz_type) ?? ""];
  const client_request_id = str(p.client_request_id);
  if (!movement || !client_request_id) return undefined;
  const fields = defined({
    request_id: str(p.request_id) ?? str(p.journal_id) ?? str(p.instant_funding_id) ?? str(p.fx_id) ?? str(p.instant_exchange_id),
    account_id: str(p.account_id) ?? str(p.from_account),
    from_account: str(p.from_account),
    to_account: str(p.to_account),
    direction: str(p.type),
    amount: dec(p.amount) ?? dec(p.from_amount),
    currency: str(p.currency) ?? str(p.from_currency),
    to_amount: dec(p.to_amount),
    to_currency: str(p.to_currency),
    fx_rate: dec(p.fx_rate),
    instrument_type: str(p.instrument_type),
    market: str(p.market),
    symbol: str(p.symbol),
    quantity: dec(p.quantity),
    status: str(p.status),
    reason: str(p.reason),
    requested_by: str(p.requested_by),
  });
  return { kind: "movement", movement, client_request_id, at, fields };
}

/** What a stored event means. Unknown types are kept and counted; known ones without a usable payload are stored. */
export function interpret(e: Envelope): Interpretation {
  if (!KNOWN_TYPES.includes(e.event_type)) return { outcome: "unknown", changes: [] };
  const at = isoTime(e.timestamp) ?? new Date().toISOString();
  const p = e.payload;
  const biz = str(p.biz_type);
  let change: Change | undefined;
  switch (e.event_type) {
    case "TRADE":
      change = biz === "TRADE" || biz === undefined ? tradeChange(p, at) : undefined;
      break;
    case "ORDER_SNAPSHOT":
      change = orderSnapshotChange(p, at);
      break;
    case "DESK_ORDER":
      change = orderSnapshotChange(p, at);
      if (change)
        Object.assign(change, {
          scene: "SUBMITTED_BY_DESK",
          snapshot: false,
          wantDetail: true,
          fields: { ...change.fields, submitted_by: str(p.submitted_by) },
        });
      break;
    case "FUNDING":
    case "JOURNAL":
    case "MOVEMENT_SNAPSHOT":
    case "DESK_MOVEMENT":
      change = movementChange(p, at);
      break;
    case "ACCOUNT":
      change = { kind: "notice", topic: "account", account_id: str(p.account_id) ?? e.account_id };
      break;
    case "INSTRUMENT":
    case "CORPORATE_ACTION":
      change = { kind: "notice", topic: "instrument" };
      break;
    case "MASTER_DATA":
      change = { kind: "notice", topic: "master-data" };
      break;
  }
  if (!change) return { outcome: "stored", changes: [] };
  return { outcome: change.kind === "notice" ? "stored" : "projected", changes: [change] };
}

/** The JSON envelope of a stream message, or why it is not one. */
export function parseEnvelope(raw: string): { ok: true; envelope: Envelope } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return { ok: false, error: "not JSON" };
  }
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object" || Array.isArray(o)) return { ok: false, error: "not an object" };
  const id = str(o.id);
  const type = str(o.event_type);
  if (!id || !type) return { ok: false, error: "no id or event_type" };
  const payload =
    o.payload && typeof o.payload === "object" && !Array.isArray(o.payload) ? (o.payload as Record<string, unknown>) : undefined;
  if (!payload) return { ok: false, error: "no payload object" };
  return {
    ok: true,
    envelope: { id, event_type: type, timestamp: str(o.timestamp), account_id: str(o.account_id) ?? str(payload.account_id), payload },
  };
}
