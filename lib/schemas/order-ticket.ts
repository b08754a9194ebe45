import Decimal from "decimal.js";
import { z } from "zod";
import { overridesSchema } from "@/lib/pre-trade";
import { ORDER_TYPES_BY_MARKET } from "@/lib/broker-enums";
import { symbolIn } from "@/lib/schemas/market";
import { isDeskDate } from "@/lib/format";
import { CLIENT_ID_PATTERN } from "@/lib/ids";
import { amountProblem, DECIMAL_PATTERN, decimalPlaces } from "@/lib/money";
import type { TicketAccount } from "./order-ticket-data";
import { ORDER_TYPE_LABELS } from "./order-type-labels";
import { nameStrategy, optionLevelProblem, STRATEGY_LABELS, type StrategyLeg } from "@/lib/option-strategy";

/**
 * The order ticket: one schema for the form's resolver and the preview / place actions (facts §5.1, the sandbox's
 * rules in docs/sandbox-api.md "Orders"). Form values are flat strings (what inputs hold); `toOrderRequest` turns
 * them into the wire's `new_orders`. The rules per market are data here, so the form offers exactly what the
 * schema accepts.
 */
export const TICKET_MARKETS = ["US", "HK", "CN"] as const;
export type TicketMarket = (typeof TICKET_MARKETS)[number];

/** What the ticket offers: the upstream's order types per market, but for the US auction orders (open and close). */
export const STOCK_ORDER_TYPES = {
  US: ORDER_TYPES_BY_MARKET.US.filter((t) => t !== "MARKET_ON_OPEN" && t !== "MARKET_ON_CLOSE"),
  HK: ORDER_TYPES_BY_MARKET.HK,
  CN: ORDER_TYPES_BY_MARKET.CN,
} satisfies Record<TicketMarket, readonly string[]>;
export const OPTION_ORDER_TYPES = ORDER_TYPES_BY_MARKET.OPTION;

const LIMIT_TYPES = ["LIMIT", "STOP_LOSS_LIMIT", "TOUCH_LMT", "ENHANCED_LIMIT", "AT_AUCTION_LIMIT", "ODD_LOT_LIMIT"];
const STOP_TYPES = ["STOP_LOSS", "STOP_LOSS_LIMIT", "TOUCH_MKT", "TOUCH_LMT"];
const TRAILING_TYPES = ["TRAILING_STOP_LOSS", "TRAILING_STOP_LOSS_LIMIT"];
export const needsLimit = (t: string) => LIMIT_TYPES.includes(t);
export const needsStop = (t: string) => STOP_TYPES.includes(t);
export const isTrailing = (t: string) => TRAILING_TYPES.includes(t);

export const SIDES = ["BUY", "SELL", "SHORT"] as const;
export const TIME_IN_FORCE = ["DAY", "GTC", "GTD"] as const;
export const SESSIONS = { US: ["CORE", "ALL", "NIGHT", "ALL_DAY"], HK: ["CORE"], CN: ["CORE"] } as const satisfies Record<
  TicketMarket,
  readonly string[]
>;
export const SESSION_LABELS: Record<string, string> = {
  CORE: "Core hours",
  ALL: "Pre + core + after hours",
  NIGHT: "Overnight",
  ALL_DAY: "All day (24h)",
};

/**
 * Combos the upstream accepts: for US stocks NORMAL, MASTER (+ STOP_PROFIT / STOP_LOSS) and OCO only; OTO and OTOCO
 * for HK stocks; option orders are NORMAL only (docs/sandbox-api.md "Combo orders"). China A-shares take limit and
 * auction-limit orders only, so no stop-loss child nor a stop for an OCO pair: single orders.
 */
export const COMBOS = ["NORMAL", "MASTER", "OCO", "OTO", "OTOCO"] as const;
export type Combo = (typeof COMBOS)[number];
export const COMBOS_BY_MARKET: Record<TicketMarket, readonly Combo[]> = {
  US: ["NORMAL", "MASTER", "OCO"],
  HK: ["NORMAL", "MASTER", "OCO", "OTO", "OTOCO"],
  CN: ["NORMAL"],
};

/** The ticket opened on a symbol (from its instrument page): `/orders/new?market=…&symbol=…`. */
export const ticketHref = (market: string, symbol: string) => `/orders/new?${new URLSearchParams({ market, symbol }).toString()}`;

/** The ticket page's `?market=&symbol=`, parsed on the server: a market the ticket offers and a symbol's shape. */
export const ticketInstrumentIn = z.object({ market: z.enum(TICKET_MARKETS), symbol: symbolIn });
export type TicketInstrumentParams = z.output<typeof ticketInstrumentIn>;

/** The market as the ticket names it. */
export const TICKET_MARKET_LABELS: Record<TicketMarket, string> = { US: "US", HK: "Hong Kong", CN: "China A (Connect)" };
export const COMBO_LABELS: Record<Combo, string> = {
  NORMAL: "Single order",
  MASTER: "Take-profit / stop-loss",
  OCO: "One cancels other (OCO)",
  OTO: "One triggers other (OTO)",
  OTOCO: "One triggers OCO (OTOCO)",
};

const str = z.string().trim();

const legSchema = z.object({
  symbol: str, // OCC symbol of the contract
  option_type: z.enum(["CALL", "PUT"]),
  strike_price: str,
  expiry: str,
  multiplier: str,
  side: z.enum(["BUY", "SELL"]),
  ratio: str,
});

export const ticketObject = z.object({
  account_id: str.min(1, "Choose an account"),
  /** What the account picker read: its option level, used by the level check before anything is sent. */
  account_option_level: str,
  market: z.enum(TICKET_MARKETS),
  instrument_type: z.enum(["EQUITY", "OPTION"]),
  symbol: str,
  /** The instrument's board lot (HK, CN), from the instrument lookup. */
  lot_size: str,
  side: z.enum(SIDES),
  entrust_type: z.enum(["QTY", "AMOUNT"]),
  quantity: str,
  total_cash_amount: str,
  order_type: str.min(1, "Choose an order type"),
  limit_price: str,
  stop_price: str,
  trailing_type: z.enum(["AMOUNT", "PERCENTAGE"]),
  trailing_stop_step: str,
  trailing_limit_price_offset: str,
  time_in_force: z.enum(TIME_IN_FORCE),
  expire_date: str,
  trading_session: z.enum(["CORE", "ALL", "NIGHT", "ALL_DAY"]),
  combo: z.enum(COMBOS),
  /** MASTER / OTO / OTOCO children: a take-profit limit and a stop-loss stop, on the opposite side. */
  profit_enabled: z.boolean(),
  profit_limit_price: str,
  loss_enabled: z.boolean(),
  loss_stop_price: str,
  /** The other order of an OCO pair (same side and quantity). */
  oco_order_type: z.enum(["LIMIT", "STOP_LOSS", "STOP_LOSS_LIMIT"]),
  oco_limit_price: str,
  oco_stop_price: str,
  legs: z.array(legSchema).max(4, "At most four legs"),
  /** Quantities held by symbol (stock and OCC), from the account's positions: closing trades and covered calls. */
  held: z.record(z.string(), z.string()),
});
export type TicketValues = z.input<typeof ticketObject>;

type Issue = (path: string, message: string) => void;

const priceProblem = (v: string, what: string) => {
  if (!v) return `Enter the ${what}`;
  if (!DECIMAL_PATTERN.test(v)) return `Enter the ${what} as a number such as 12.50`;
  if (new Decimal(v).lte(0)) return `The ${what} must be greater than zero`;
  if (decimalPlaces(v) > 4) return `At most 4 decimals in the ${what}`;
  return undefined;
};

function checkPrice(issue: Issue, path: string, v: string, what: string) {
  const p = priceProblem(v, what);
  if (p) issue(path, p);
}

export const opposite = (side: string): "BUY" | "SELL" => (side === "BUY" ? "SELL" : "BUY");
export const strategyOf = (v: Pick<TicketValues, "legs">) => nameStrategy(v.legs as StrategyLeg[]);

/** An empty ticket (on the account the page opened with, if any). */
export function blankTicket(account?: Pick<TicketAccount, "account_id" | "option_level" | "held">): TicketValues {
  return {
    account_id: account?.account_id ?? "",
    account_option_level: account?.option_level ?? "",
    market: "US",
    instrument_type: "EQUITY",
    symbol: "",
    lot_size: "",
    side: "BUY",
    entrust_type: "QTY",
    quantity: "",
    total_cash_amount: "",
    order_type: "LIMIT",
    limit_price: "",
    stop_price: "",
    trailing_type: "AMOUNT",
    trailing_stop_step: "",
    trailing_limit_price_offset: "",
    time_in_force: "DAY",
    expire_date: "",
    trading_session: "CORE",
    combo: "NORMAL",
    profit_enabled: false,
    profit_limit_price: "",
    loss_enabled: false,
    loss_stop_price: "",
    oco_order_type: "STOP_LOSS",
    oco_limit_price: "",
    oco_stop_price: "",
    legs: [],
    held: account?.held ?? {},
  };
}

/** Every rule across fields, on the form and in the action alike. */
export function ticketRules(v: z.output<typeof ticketObject>, issue: Issue) {
  const option = v.instrument_type === "OPTION";
  if (option && v.market !== "US") issue("market", "Options trade in the US market only");
  if (!option && !v.symbol) issue("symbol", "Look up the instrument first");

  // Order type and its prices
  const allowed: readonly string[] = option ? OPTION_ORDER_TYPES : STOCK_ORDER_TYPES[v.market];
  if (v.order_type && !allowed.includes(v.order_type))
    issue(
      "order_type",
      `${ORDER_TYPE_LABELS[v.order_type] ?? v.order_type} orders are not taken for ${option ? "options" : `${v.market} stocks`}`,
    );
  if (needsLimit(v.order_type))
    checkPrice(issue, "limit_price", v.limit_price, option && v.legs.length > 1 ? "net limit price" : "limit price");
  if (needsStop(v.order_type)) checkPrice(issue, "stop_price", v.stop_price, "stop price");
  if (isTrailing(v.order_type)) {
    checkPrice(
      issue,
      "trailing_stop_step",
      v.trailing_stop_step,
      v.trailing_type === "PERCENTAGE" ? "trailing percentage" : "trailing amount",
    );
    if (
      v.trailing_type === "PERCENTAGE" &&
      v.trailing_stop_step &&
      new Decimal(v.trailing_stop_step.match(DECIMAL_PATTERN) ? v.trailing_stop_step : "0").gte(100)
    ) {
      issue("trailing_stop_step", "The trailing percentage must be below 100");
    }
    if (v.order_type === "TRAILING_STOP_LOSS_LIMIT")
      checkPrice(issue, "trailing_limit_price_offset", v.trailing_limit_price_offset, "limit offset");
  }

  // Side
  if (v.side === "SHORT" && (option || v.market !== "US")) issue("side", "Short selling is for US stocks only");
  if (option && v.side === "SHORT") issue("side", "Option orders buy or sell");

  // Quantity or amount
  if (v.entrust_type === "AMOUNT") {
    if (option || v.market !== "US" || v.side !== "BUY" || !["MARKET", "LIMIT"].includes(v.order_type)) {
      issue("entrust_type", "An amount is for US stock buys, market or limit only");
    } else if (v.combo !== "NORMAL") {
      issue("entrust_type", "Combo orders are placed by quantity");
    } else {
      const p = amountProblem(v.total_cash_amount, "USD");
      if (p) issue("total_cash_amount", p);
    }
  } else {
    quantityRules(v, issue);
  }

  // Time in force and session
  if (v.time_in_force === "GTD") {
    if (!isDeskDate(v.expire_date)) issue("expire_date", "A GTD order needs its expiry date (yyyy-mm-dd)");
    else if (v.expire_date < new Date().toISOString().slice(0, 10)) issue("expire_date", "The expiry date has passed");
  }
  if (!(SESSIONS[v.market] as readonly string[]).includes(v.trading_session))
    issue("trading_session", `${v.market} trades in core hours only`);

  // Combos
  if (!COMBOS_BY_MARKET[v.market].includes(v.combo) || (option && v.combo !== "NORMAL")) {
    issue("combo", option ? "Option orders are single orders" : `${COMBO_LABELS[v.combo]} is not offered for ${v.market} stocks`);
  }
  comboRules(v, issue);

  if (option) optionRules(v, issue);
}

function quantityRules(v: z.output<typeof ticketObject>, issue: Issue) {
  const q = v.quantity;
  if (!q) return issue("quantity", "Enter the quantity");
  if (!DECIMAL_PATTERN.test(q) || new Decimal(q).lte(0)) return issue("quantity", "Enter a quantity greater than zero, such as 100");
  const whole = new Decimal(q).isInteger();
  if (v.instrument_type === "OPTION" && !whole) return issue("quantity", "Options trade in whole contracts");
  if (v.market === "HK" || v.market === "CN") {
    if (!whole) return issue("quantity", `${v.market} stocks trade in whole shares`);
    const lot = v.lot_size && DECIMAL_PATTERN.test(v.lot_size) ? new Decimal(v.lot_size) : undefined;
    if (!lot || lot.lte(0)) return;
    if (v.market === "CN") {
      if (!new Decimal(q).mod(lot).isZero()) issue("quantity", `Whole lots of ${lot.toString()} shares`);
    } else if (v.order_type === "ODD_LOT_LIMIT") {
      if (new Decimal(q).gte(lot)) issue("quantity", `An odd-lot order is for fewer than one lot (${lot.toString()} shares)`);
    } else if (!new Decimal(q).mod(lot).isZero()) {
      issue("quantity", `Whole lots of ${lot.toString()} shares (or an odd-lot limit order for fewer than one lot)`);
    }
  } else if (decimalPlaces(q) > 4) {
    issue("quantity", "At most 4 decimals in a quantity");
  }
}

function comboRules(v: z.output<typeof ticketObject>, issue: Issue) {
  if (v.combo === "MASTER" || v.combo === "OTO" || v.combo === "OTOCO") {
    const children = [v.profit_enabled, v.loss_enabled].filter(Boolean).length;
    if (v.combo === "OTOCO" && children !== 2) issue("profit_enabled", "OTOCO needs both the take-profit and the stop-loss order");
    else if (v.combo === "OTO" && children !== 1) issue("profit_enabled", "OTO triggers exactly one order: take-profit or stop-loss");
    else if (children === 0) issue("profit_enabled", "Add a take-profit or a stop-loss order (or both)");
    if (v.profit_enabled) checkPrice(issue, "profit_limit_price", v.profit_limit_price, "take-profit price");
    if (v.loss_enabled) checkPrice(issue, "loss_stop_price", v.loss_stop_price, "stop-loss price");
  }
  if (v.combo === "OCO") {
    if (needsLimit(v.oco_order_type)) checkPrice(issue, "oco_limit_price", v.oco_limit_price, "limit price of the other order");
    if (needsStop(v.oco_order_type)) checkPrice(issue, "oco_stop_price", v.oco_stop_price, "stop price of the other order");
  }
}

function optionRules(v: z.output<typeof ticketObject>, issue: Issue) {
  if (v.legs.length === 0) return issue("legs", "Pick one to four contracts from the option chain");
  if (v.legs.some((l) => !DECIMAL_PATTERN.test(l.ratio) || !new Decimal(l.ratio).isInteger() || new Decimal(l.ratio).lte(0))) {
    return issue("legs", "Each leg's ratio is a whole number of contracts per unit");
  }
  const strategy = nameStrategy(v.legs as StrategyLeg[]);
  if (!strategy)
    return issue(
      "legs",
      "These legs make no strategy the broker takes (vertical, calendar, diagonal, straddle, strangle, ratio, butterfly, condor, iron butterfly or condor)",
    );
  if (strategy !== "SINGLE" && v.order_type !== "LIMIT")
    issue("order_type", `A ${STRATEGY_LABELS[strategy].toLowerCase()} is a limit order at a net price`);
  if (strategy !== "SINGLE" && v.side === "SHORT") issue("side", "A multi-leg order is a debit (buy) or a credit (sell)");
  if (strategy === "SINGLE" && v.legs[0].side !== v.side) issue("side", "The order's side is the leg's side");
  const problem = optionLevelProblem(
    v.account_option_level,
    strategy,
    v.legs as StrategyLeg[],
    DECIMAL_PATTERN.test(v.quantity) ? v.quantity : "1",
    v.held,
  );
  if (problem) issue("legs", problem);
}

const withRules = <S extends z.ZodType<z.output<typeof ticketObject>>>(schema: S) =>
  schema.superRefine((v, ctx) => ticketRules(v, (path, message) => ctx.addIssue({ code: "custom", path: path.split("."), message })));

/** The form's resolver. */
export const ticketSchema = withRules(ticketObject);

/** What the preview and place actions take: the ticket and its one client_order_id (children derive theirs). */
export const placeTicketSchema = withRules(
  ticketObject.extend({
    client_order_id: z
      .string()
      .regex(CLIENT_ID_PATTERN, "Reload the ticket: its order id is invalid")
      .max(28, "Reload the ticket: its order id is too long"),
    /** Pre-trade findings the person placing overrides (only those the policy allows; kept in the audited input). */
    overrides: overridesSchema.default([]),
  }),
);
export type PlaceTicketValues = z.input<typeof placeTicketSchema>;
