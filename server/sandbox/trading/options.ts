import "server-only";
import type { Queryable } from "@/server/db/engine";
import { business, illegal } from "../errors";
import { Decimal, parsePositive } from "../money";
import type { AccountForOrders, ContractInfo, LegSpec, OrderSpec } from "./order-types";

export type { LegSpec } from "./order-types";

/**
 * US option orders. A single-leg order names the contract by its OCC symbol (top-level `symbol`, no legs) or by one
 * leg; a multi-leg order carries `legs` and an `option_strategy`. The order `quantity` counts strategy units and each
 * leg's `quantity` is its ratio per unit (1 for most strategies, 100 shares for the stock leg of COVERED_STOCK).
 * `limit_price` is the net price per unit in per-share terms (Σ ±ratio × price × multiplier / 100): BUY pays at
 * most this debit, SELL receives at least this credit.
 *
 * Option level needed per strategy (closing trades that only reduce held positions are allowed at any level):
 *   LV1: COVERED_STOCK, COLLAR_WITH_STOCK, SINGLE SELL of a call covered by held shares
 *   LV2: SINGLE BUY, SINGLE SELL of a put (cash-secured), long STRADDLE / STRANGLE
 *   LV3: VERTICAL, CALENDAR, DIAGONAL, BUTTERFLY, CONDOR, IRON_BUTTERFLY, IRON_CONDOR (defined risk)
 *   LV4: uncovered SINGLE SELL of a call, short STRADDLE / STRANGLE, RATIO
 */
const LEG_COUNT: Record<string, number[]> = {
  SINGLE: [1],
  COVERED_STOCK: [2],
  STRADDLE: [2],
  STRANGLE: [2],
  VERTICAL: [2],
  CALENDAR: [2],
  DIAGONAL: [2],
  COLLAR_WITH_STOCK: [3],
  BUTTERFLY: [3],
  CONDOR: [4],
  IRON_BUTTERFLY: [4],
  IRON_CONDOR: [4],
  RATIO: [2],
};
const STRATEGIES = Object.keys(LEG_COUNT);

type ContractRow = ContractInfo & { instrument_id: string; status: string };
const CONTRACT_SQL = `SELECT instrument_id, symbol, root_symbol, option_type, strike_price::text, expiration_date::text AS expiration_date, multiplier, status
  FROM sandbox.option_contracts`;

async function contract(db: Queryable, leg: Record<string, unknown>, field: string): Promise<ContractRow> {
  const sym = String(leg.symbol ?? "");
  let rows: ContractRow[];
  if (/^[A-Z.]{1,6}\d{6}[CP]\d{8}$/.test(sym)) {
    rows = (await db.query<ContractRow>(`${CONTRACT_SQL} WHERE symbol = $1`, [sym])).rows;
  } else {
    if (!leg.strike_price || !leg.option_expire_date || !leg.option_type)
      throw illegal(`${field}: strike_price, option_expire_date and option_type are required (or an OCC symbol).`);
    rows = (
      await db.query<ContractRow>(
        `${CONTRACT_SQL} WHERE root_symbol = $1 AND option_type = $2 AND strike_price = $3::numeric AND expiration_date = $4::date`,
        [sym, leg.option_type, String(leg.strike_price), leg.option_expire_date],
      )
    ).rows;
  }
  if (!rows[0]) throw business("INSTRUMENT_NOT_FOUND", `${field}: option contract not found.`);
  if (rows[0].status !== "ACTIVE") throw business("INSTRUMENT_NOT_TRADABLE", `${rows[0].symbol} is not active.`);
  return rows[0];
}

export async function resolveLegs(
  db: Queryable,
  raw: Record<string, unknown>,
  spec: OrderSpec,
  account: AccountForOrders,
  f: (n: string) => string,
): Promise<Partial<OrderSpec>> {
  const rawLegs = Array.isArray(raw.legs)
    ? (raw.legs as Record<string, unknown>[])
    : [{ symbol: raw.symbol, side: raw.side, quantity: "1", instrument_type: "OPTION" }];
  if (!rawLegs.length) throw illegal(`${f("legs")} must not be empty.`);
  const strategy = raw.option_strategy == null ? (rawLegs.length === 1 ? "SINGLE" : undefined) : String(raw.option_strategy);
  if (!strategy || !STRATEGIES.includes(strategy)) throw illegal(`${f("option_strategy")} must be one of ${STRATEGIES.join(", ")}.`);
  if (!LEG_COUNT[strategy].includes(rawLegs.length)) throw illegal(`${strategy} takes ${LEG_COUNT[strategy].join(" or ")} legs.`);
  const legs: LegSpec[] = [];
  for (const [j, leg] of rawLegs.entries()) {
    const lf = `${f("legs")}[${j}]`;
    const side =
      leg.side === "BUY" || leg.side === "SELL"
        ? leg.side
        : spec.side === "SHORT"
          ? undefined
          : rawLegs.length === 1
            ? spec.side
            : undefined;
    if (!side) throw illegal(`${lf}.side must be BUY or SELL.`);
    const ratio = parsePositive(leg.quantity ?? "1", `${lf}.quantity`);
    if (leg.instrument_type === "EQUITY") {
      const { rows } = await db.query<{ instrument_id: string }>(
        "SELECT instrument_id FROM sandbox.instruments WHERE market = 'US' AND symbol = $1",
        [leg.symbol],
      );
      if (!rows[0]) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
      legs.push({
        instrument_type: "EQUITY",
        symbol: String(leg.symbol),
        instrument_id: rows[0].instrument_id,
        side,
        ratio,
        multiplier: 1,
      });
      continue;
    }
    const c = await contract(db, leg, lf);
    legs.push({
      instrument_type: "OPTION",
      symbol: c.symbol,
      instrument_id: c.instrument_id,
      side,
      ratio,
      multiplier: c.multiplier,
      option: { root: c.root_symbol, option_type: c.option_type, strike: c.strike_price, expiry: c.expiration_date },
    });
  }
  const first = legs.find((l) => l.option)!;
  if (!first) throw illegal(`${f("legs")}: at least one option leg is required.`);
  if (legs.some((l) => l.option && l.option.root !== first.option!.root)) throw illegal("All option legs must share one underlying.");
  if (spec.entrust_type !== "QTY" || !spec.quantity?.isInteger())
    throw illegal(`${f("quantity")}: option orders are QTY orders of whole contracts.`);
  if (strategy === "SINGLE" && legs[0].side !== spec.side) throw illegal(`${f("side")} must match the leg's side.`);
  await checkOptionLevel(db, account, strategy, legs, spec.quantity);
  return {
    symbol: strategy === "SINGLE" ? first.symbol : first.option!.root,
    instrument_id: first.instrument_id,
    currency: "USD",
    category: "US_OPTION",
    option_strategy: strategy,
    legs,
    lot_size: new Decimal(1),
  };
}

const LEVEL = (l: string | null) => Number(/^LV([1-4])$/.exec(l ?? "")?.[1] ?? 0);

async function checkOptionLevel(db: Queryable, account: AccountForOrders, strategy: string, legs: LegSpec[], units: Decimal) {
  const { rows } = await db.query<{ symbol: string; quantity: string }>(
    "SELECT symbol, quantity FROM sandbox.positions WHERE account_id = $1 AND symbol = ANY($2)",
    [account.account_id, [...new Set([...legs.map((l) => l.symbol), ...legs.flatMap((l) => (l.option ? [l.option.root] : []))])]],
  );
  const held = new Map(rows.map((r) => [r.symbol, new Decimal(r.quantity)]));
  const closing = legs.every((l) => {
    const h = held.get(l.symbol) ?? new Decimal(0);
    const q = l.ratio.times(units);
    return l.side === "SELL" ? h.gte(q) : h.neg().gte(q);
  });
  if (closing) return;
  const legOf = legs.filter((l) => l.option);
  const allBuy = legOf.every((l) => l.side === "BUY");
  let need: number;
  switch (strategy) {
    case "COVERED_STOCK":
    case "COLLAR_WITH_STOCK":
      need = 1;
      break;
    case "SINGLE": {
      const l = legOf[0];
      if (l.side === "BUY") need = 2;
      else if (l.option!.option_type === "PUT") need = 2;
      else need = (held.get(l.option!.root) ?? new Decimal(0)).gte(units.times(l.multiplier)) ? 1 : 4;
      break;
    }
    case "STRADDLE":
    case "STRANGLE":
      need = allBuy ? 2 : 4;
      break;
    case "RATIO":
      need = 4;
      break;
    default:
      need = 3;
  }
  const have = LEVEL(account.option_level);
  if (have < need) {
    throw business(
      "OPTION_LEVEL_TOO_LOW",
      `${strategy} ${legOf.map((l) => `${l.side} ${l.option!.option_type}`).join(" / ")} needs option level LV${need}; account ${account.account_number} has ${account.option_level ?? "none"}.`,
    );
  }
}
