import { describe, expect, it } from "vitest";
import { nameStrategy, optionLevelProblem, requiredOptionLevel, type StrategyLeg } from "@/lib/option-strategy";
import {
  blankTicket,
  placeTicketSchema,
  ticketHref,
  ticketInstrumentIn,
  ticketSchema,
  type TicketValues,
} from "@/lib/schemas/order-ticket";
import { ticketFingerprint, toOrderRequest } from "@/lib/schemas/order-ticket-wire";

/** The ticket's one schema: per-market order types and their prices, GTD, HK lots, amounts, combos, option levels. */
const us = (o: Partial<TicketValues> = {}): TicketValues => ({
  ...blankTicket(),
  account_id: "A1",
  symbol: "AAPL",
  quantity: "10",
  limit_price: "200.00",
  ...o,
});
const hk = (o: Partial<TicketValues> = {}): TicketValues =>
  us({ market: "HK", symbol: "00700", lot_size: "100", quantity: "200", limit_price: "400", ...o });
const cn = (o: Partial<TicketValues> = {}): TicketValues =>
  us({ market: "CN", symbol: "601318", lot_size: "100", quantity: "200", limit_price: "52.00", ...o });
const errors = (v: TicketValues) => {
  const r = ticketSchema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("order types and their prices", () => {
  it("a US limit order is valid; without its limit price the error is on limit_price", () => {
    expect(errors(us())).toEqual({});
    expect(errors(us({ limit_price: "" }))).toEqual({ limit_price: "Enter the limit price" });
  });

  it("each US type asks for its own prices", () => {
    expect(errors(us({ order_type: "MARKET", limit_price: "" }))).toEqual({});
    expect(errors(us({ order_type: "STOP_LOSS", limit_price: "" }))).toEqual({ stop_price: "Enter the stop price" });
    expect(errors(us({ order_type: "STOP_LOSS_LIMIT", limit_price: "" }))).toMatchObject({
      limit_price: expect.any(String),
      stop_price: expect.any(String),
    });
    expect(errors(us({ order_type: "TOUCH_LMT", stop_price: "190" }))).toEqual({});
    expect(errors(us({ order_type: "TRAILING_STOP_LOSS", side: "SELL" }))).toEqual({ trailing_stop_step: "Enter the trailing amount" });
    expect(errors(us({ order_type: "TRAILING_STOP_LOSS_LIMIT", trailing_type: "PERCENTAGE", trailing_stop_step: "150" }))).toEqual({
      trailing_stop_step: "The trailing percentage must be below 100",
      trailing_limit_price_offset: "Enter the limit offset",
    });
  });

  it("the HK list differs: ODD_LOT_LIMIT and ENHANCED_LIMIT are HK only", () => {
    expect(errors(us({ order_type: "ODD_LOT_LIMIT" }))).toEqual({ order_type: "Odd-lot limit orders are not taken for US stocks" });
    expect(errors(hk({ order_type: "ENHANCED_LIMIT" }))).toEqual({});
    expect(errors(hk({ order_type: "AT_AUCTION", limit_price: "" }))).toEqual({});
  });

  it("prices are decimal strings, positive, at most 4 decimals", () => {
    expect(errors(us({ limit_price: "abc" }))).toEqual({ limit_price: "Enter the limit price as a number such as 12.50" });
    expect(errors(us({ limit_price: "0" }))).toEqual({ limit_price: "The limit price must be greater than zero" });
    expect(errors(us({ limit_price: "1.123456" }))).toEqual({ limit_price: "At most 4 decimals in the limit price" });
  });
});

describe("quantity, lots and amounts", () => {
  it("HK quantities are whole lots; an odd-lot limit order is fewer than one lot", () => {
    expect(errors(hk())).toEqual({});
    expect(errors(hk({ quantity: "150" }))).toEqual({
      quantity: "Whole lots of 100 shares (or an odd-lot limit order for fewer than one lot)",
    });
    expect(errors(hk({ quantity: "30", order_type: "ODD_LOT_LIMIT" }))).toEqual({});
    expect(errors(hk({ quantity: "100", order_type: "ODD_LOT_LIMIT" }))).toEqual({
      quantity: "An odd-lot order is for fewer than one lot (100 shares)",
    });
    expect(errors(hk({ quantity: "1.5" }))).toEqual({ quantity: "HK stocks trade in whole shares" });
  });

  it("an amount is a US buy (market or limit) in USD with at most 2 decimals, sent as total_cash_amount", () => {
    const amount = us({ entrust_type: "AMOUNT", quantity: "", total_cash_amount: "1500.50" });
    expect(errors(amount)).toEqual({});
    expect(errors({ ...amount, total_cash_amount: "1500.505" })).toEqual({ total_cash_amount: "At most 2 decimals in USD" });
    expect(errors({ ...amount, side: "SELL" })).toEqual({ entrust_type: "An amount is for US stock buys, market or limit only" });
    const wire = toOrderRequest(placeTicketSchema.parse({ ...amount, client_order_id: "ord_1" })).new_orders[0];
    expect(wire).toMatchObject({ entrust_type: "AMOUNT", total_cash_amount: "1500.50" });
    expect(wire).not.toHaveProperty("quantity");
  });

  it("a short sale is for US stocks", () => {
    expect(errors(us({ side: "SHORT" }))).toEqual({});
    expect(errors(hk({ side: "SHORT" }))).toEqual({ side: "Short selling is for US stocks only" });
  });
});

describe("time in force", () => {
  it("GTD needs its expiry date, which goes on the wire; DAY sends none", () => {
    expect(errors(us({ time_in_force: "GTD" }))).toEqual({ expire_date: "A GTD order needs its expiry date (yyyy-mm-dd)" });
    expect(errors(us({ time_in_force: "GTD", expire_date: "2001-01-01" }))).toEqual({ expire_date: "The expiry date has passed" });
    const gtd = placeTicketSchema.parse({ ...us({ time_in_force: "GTD", expire_date: "2099-12-31" }), client_order_id: "ord_1" });
    expect(toOrderRequest(gtd).new_orders[0]).toMatchObject({ time_in_force: "GTD", expire_date: "2099-12-31" });
    expect(toOrderRequest({ ...gtd, time_in_force: "DAY" }).new_orders[0]).not.toHaveProperty("expire_date");
  });

  it("HK trades in core hours only", () => {
    expect(errors(hk({ trading_session: "ALL" }))).toEqual({ trading_session: "HK trades in core hours only" });
  });
});

describe("combos", () => {
  it("MASTER with take-profit and stop-loss: three orders, children on the other side with derived ids", () => {
    const v = placeTicketSchema.parse({
      ...us({ combo: "MASTER", profit_enabled: true, profit_limit_price: "250", loss_enabled: true, loss_stop_price: "180" }),
      client_order_id: "ord_abc",
    });
    expect(
      toOrderRequest(v).new_orders.map((o) => [o.combo_type, o.client_order_id, o.side, o.order_type, o.limit_price ?? o.stop_price]),
    ).toEqual([
      ["MASTER", "ord_abc", "BUY", "LIMIT", "200.00"],
      ["STOP_PROFIT", "ord_abc-tp", "SELL", "LIMIT", "250"],
      ["STOP_LOSS", "ord_abc-sl", "SELL", "STOP_LOSS", "180"],
    ]);
    expect(errors(us({ combo: "MASTER" }))).toEqual({ profit_enabled: "Add a take-profit or a stop-loss order (or both)" });
  });

  it("OCO pairs two orders of one side; OTO and OTOCO are offered for HK only", () => {
    const v = placeTicketSchema.parse({
      ...us({ side: "SELL", combo: "OCO", limit_price: "250", oco_order_type: "STOP_LOSS", oco_stop_price: "180" }),
      client_order_id: "ord_x",
    });
    expect(toOrderRequest(v).new_orders.map((o) => [o.combo_type, o.side, o.order_type])).toEqual([
      ["OCO", "SELL", "LIMIT"],
      ["OCO", "SELL", "STOP_LOSS"],
    ]);
    expect(errors(us({ combo: "OTO", profit_enabled: true, profit_limit_price: "250" }))).toEqual({
      combo: "One triggers other (OTO) is not offered for US stocks",
    });
    expect(errors(hk({ combo: "OTO", profit_enabled: true, profit_limit_price: "450" }))).toEqual({});
    expect(errors(hk({ combo: "OTOCO", profit_enabled: true, profit_limit_price: "450" }))).toEqual({
      profit_enabled: "OTOCO needs both the take-profit and the stop-loss order",
    });
  });
});

describe("China A-shares (Connect)", () => {
  it("take limit and auction-limit orders only, in core hours, as single orders", () => {
    expect(errors(cn())).toEqual({});
    expect(errors(cn({ order_type: "AT_AUCTION_LIMIT" }))).toEqual({});
    expect(errors(cn({ order_type: "MARKET", limit_price: "" }))).toEqual({ order_type: "Market orders are not taken for CN stocks" });
    expect(errors(cn({ order_type: "STOP_LOSS", stop_price: "50" }))).toMatchObject({
      order_type: expect.stringMatching(/not taken for CN stocks$/),
    });
    expect(errors(cn({ order_type: "ODD_LOT_LIMIT", quantity: "50" }))).toMatchObject({
      order_type: expect.stringMatching(/not taken for CN stocks$/),
    });
    expect(errors(cn({ trading_session: "ALL" }))).toEqual({ trading_session: "CN trades in core hours only" });
    expect(errors(cn({ combo: "OCO", oco_order_type: "LIMIT", oco_limit_price: "55" }))).toEqual({
      combo: "One cancels other (OCO) is not offered for CN stocks",
    });
    expect(errors(cn({ side: "SHORT" }))).toEqual({ side: "Short selling is for US stocks only" });
    expect(errors(cn({ instrument_type: "OPTION" }))).toMatchObject({ market: "Options trade in the US market only" });
  });

  it("quantities are whole board lots, with no odd-lot order to fall back on", () => {
    expect(errors(cn({ quantity: "150" }))).toEqual({ quantity: "Whole lots of 100 shares" });
    expect(errors(cn({ quantity: "100.5" }))).toEqual({ quantity: "CN stocks trade in whole shares" });
    expect(errors(cn({ quantity: "1000" }))).toEqual({});
  });

  it("an instrument page's link opens the ticket on its symbol; what is not a market or a symbol is refused", () => {
    expect(ticketHref("CN", "601318")).toBe("/orders/new?market=CN&symbol=601318");
    expect(ticketHref("US", "BRK.B")).toBe("/orders/new?market=US&symbol=BRK.B");
    expect(ticketInstrumentIn.parse({ market: "HK", symbol: " 00700 " })).toEqual({ market: "HK", symbol: "00700" });
    expect(ticketInstrumentIn.safeParse({ market: "XX", symbol: "AAPL" }).success).toBe(false);
    expect(ticketInstrumentIn.safeParse({ market: "US", symbol: "<script>" }).success).toBe(false);
  });

  it("go on the wire as market CN", () => {
    const wire = toOrderRequest(placeTicketSchema.parse({ ...cn(), client_order_id: "ord_cn1" })).new_orders[0];
    expect(wire).toMatchObject({ market: "CN", symbol: "601318", order_type: "LIMIT", quantity: "200", limit_price: "52.00" });
    expect(wire.support_trading_session).toBe("CORE");
  });
});

describe("the ticket's id", () => {
  it("the fingerprint ignores what the account picker read, and changes with the ticket's content", () => {
    const a = us();
    expect(ticketFingerprint({ ...a, held: { AAPL: "5" } })).toBe(ticketFingerprint(a));
    expect(ticketFingerprint({ ...a, quantity: "11" })).not.toBe(ticketFingerprint(a));
  });
});

const leg = (o: Partial<StrategyLeg>): StrategyLeg => ({
  option_type: "CALL",
  strike_price: "230",
  expiry: "2026-12-18",
  side: "BUY",
  ratio: "1",
  ...o,
});

describe("option strategies and levels", () => {
  it("names the strategy of the legs", () => {
    expect(nameStrategy([leg({})])).toBe("SINGLE");
    expect(nameStrategy([leg({}), leg({ strike_price: "235", side: "SELL" })])).toBe("VERTICAL");
    expect(nameStrategy([leg({}), leg({ option_type: "PUT" })])).toBe("STRADDLE");
    expect(nameStrategy([leg({}), leg({ option_type: "PUT", strike_price: "220" })])).toBe("STRANGLE");
    expect(nameStrategy([leg({}), leg({ side: "SELL", expiry: "2027-01-15" })])).toBe("CALENDAR");
    expect(nameStrategy([leg({ strike_price: "225" }), leg({ side: "SELL", ratio: "2" }), leg({ strike_price: "235" })])).toBe("BUTTERFLY");
    expect(
      nameStrategy([
        leg({ option_type: "PUT", strike_price: "210" }),
        leg({ option_type: "PUT", strike_price: "220", side: "SELL" }),
        leg({ strike_price: "240", side: "SELL" }),
        leg({ strike_price: "250" }),
      ]),
    ).toBe("IRON_CONDOR");
    expect(nameStrategy([leg({}), leg({ option_type: "PUT", side: "SELL", expiry: "2027-01-15" })])).toBeUndefined();
  });

  it("the level each needs, and the reason when the account's is lower", () => {
    const vertical = [leg({}), leg({ strike_price: "235", side: "SELL" })];
    expect(requiredOptionLevel("VERTICAL", vertical, "1")).toBe(3);
    expect(requiredOptionLevel("SINGLE", [leg({})], "1")).toBe(2);
    expect(requiredOptionLevel("SINGLE", [leg({ side: "SELL", symbol: "AAPL261218C00230000" })], "1")).toBe(4);
    expect(requiredOptionLevel("SINGLE", [leg({ side: "SELL", symbol: "AAPL261218C00230000" })], "1", { AAPL: "100" })).toBe(1);
    expect(requiredOptionLevel("STRADDLE", [leg({}), leg({ option_type: "PUT" })], "1")).toBe(2);
    expect(requiredOptionLevel("STRADDLE", [leg({ side: "SELL" }), leg({ option_type: "PUT", side: "SELL" })], "1")).toBe(4);
    expect(optionLevelProblem("LV1", "VERTICAL", vertical, "1")).toBe(
      "Vertical spread (BUY CALL / SELL CALL) needs option level LV3; the account has LV1.",
    );
    expect(optionLevelProblem("LV3", "VERTICAL", vertical, "1")).toBeUndefined();
    // selling contracts the account holds only closes: no level needed
    expect(
      optionLevelProblem("", "SINGLE", [leg({ side: "SELL", symbol: "AAPL261218C00230000" })], "1", { AAPL261218C00230000: "2" }),
    ).toBeUndefined();
  });

  it("the ticket refuses a spread above the account's level, on the legs, before sending", () => {
    const spread = us({
      instrument_type: "OPTION",
      symbol: "",
      quantity: "1",
      limit_price: "1.50",
      account_option_level: "LV1",
      legs: [
        {
          symbol: "AAPL261218C00230000",
          option_type: "CALL",
          strike_price: "230",
          expiry: "2026-12-18",
          multiplier: "100",
          side: "BUY",
          ratio: "1",
        },
        {
          symbol: "AAPL261218C00235000",
          option_type: "CALL",
          strike_price: "235",
          expiry: "2026-12-18",
          multiplier: "100",
          side: "SELL",
          ratio: "1",
        },
      ],
    });
    expect(errors(spread)).toEqual({ legs: "Vertical spread (BUY CALL / SELL CALL) needs option level LV3; the account has LV1." });
    const ok = placeTicketSchema.parse({ ...spread, account_option_level: "LV3", client_order_id: "ord_o" });
    expect(toOrderRequest(ok).new_orders[0]).toMatchObject({
      instrument_type: "OPTION",
      symbol: "AAPL",
      option_strategy: "VERTICAL",
      combo_type: "NORMAL",
      quantity: "1",
      limit_price: "1.50",
      legs: [
        { symbol: "AAPL", side: "BUY", quantity: "1", strike_price: "230", option_expire_date: "2026-12-18", option_type: "CALL" },
        { symbol: "AAPL", side: "SELL", quantity: "1", strike_price: "235", option_expire_date: "2026-12-18", option_type: "CALL" },
      ],
    });
  });
});
