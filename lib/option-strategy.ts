import Decimal from "decimal.js";

/**
 * US option strategies: the name a set of legs makes, and the option level the upstream asks for it (the sandbox's
 * rule, docs/sandbox-api.md "US options"), so the ticket can refuse before sending and say why. Plain code: the
 * ticket's schema, the form and the place action all use it.
 */
export interface StrategyLeg {
  option_type: "CALL" | "PUT";
  strike_price: string;
  expiry: string;
  side: "BUY" | "SELL";
  ratio: string;
  /** OCC symbol of the contract (for the "closing only" rule). */
  symbol?: string;
  multiplier?: string;
}

export type OptionStrategyName =
  | "SINGLE"
  | "STRADDLE"
  | "STRANGLE"
  | "VERTICAL"
  | "CALENDAR"
  | "DIAGONAL"
  | "RATIO"
  | "BUTTERFLY"
  | "CONDOR"
  | "IRON_BUTTERFLY"
  | "IRON_CONDOR";

export const STRATEGY_LABELS: Record<OptionStrategyName, string> = {
  SINGLE: "Single leg",
  STRADDLE: "Straddle",
  STRANGLE: "Strangle",
  VERTICAL: "Vertical spread",
  CALENDAR: "Calendar spread",
  DIAGONAL: "Diagonal spread",
  RATIO: "Ratio spread",
  BUTTERFLY: "Butterfly",
  CONDOR: "Condor",
  IRON_BUTTERFLY: "Iron butterfly",
  IRON_CONDOR: "Iron condor",
};

const eq = (a: string, b: string) => new Decimal(a).eq(b);
const sortByStrike = (legs: StrategyLeg[]) => [...legs].sort((a, b) => new Decimal(a.strike_price).comparedTo(b.strike_price));

/** The strategy a set of legs makes, or undefined when it makes none the upstream accepts. */
export function nameStrategy(legs: StrategyLeg[]): OptionStrategyName | undefined {
  if (legs.length === 1) return "SINGLE";
  const sameType = legs.every((l) => l.option_type === legs[0].option_type);
  const sameExpiry = legs.every((l) => l.expiry === legs[0].expiry);
  const sameRatio = legs.every((l) => eq(l.ratio, legs[0].ratio));
  if (legs.length === 2) {
    const [a, b] = legs;
    const opposite = a.side !== b.side;
    if (sameType && sameExpiry && opposite && !eq(a.strike_price, b.strike_price)) return sameRatio ? "VERTICAL" : "RATIO";
    if (sameType && !sameExpiry && opposite && sameRatio) return eq(a.strike_price, b.strike_price) ? "CALENDAR" : "DIAGONAL";
    if (!sameType && sameExpiry && !opposite && sameRatio) return eq(a.strike_price, b.strike_price) ? "STRADDLE" : "STRANGLE";
    return undefined;
  }
  if (!sameExpiry) return undefined;
  if (legs.length === 3 && sameType) {
    const [lo, mid, hi] = sortByStrike(legs);
    const wings =
      lo.side === hi.side && mid.side !== lo.side && eq(lo.ratio, hi.ratio) && eq(mid.ratio, new Decimal(lo.ratio).times(2).toString());
    const evenly = new Decimal(mid.strike_price).minus(lo.strike_price).eq(new Decimal(hi.strike_price).minus(mid.strike_price));
    return wings && evenly ? "BUTTERFLY" : undefined;
  }
  if (legs.length === 4 && sameRatio) {
    const sorted = sortByStrike(legs);
    const [a, b, c, d] = sorted;
    const outerSame = a.side === d.side && b.side === c.side && a.side !== b.side;
    if (!outerSame) return undefined;
    if (sameType) return "CONDOR";
    const puts = legs.filter((l) => l.option_type === "PUT");
    if (puts.length !== 2 || a.option_type !== "PUT" || d.option_type !== "CALL") return undefined;
    return eq(b.strike_price, c.strike_price) ? "IRON_BUTTERFLY" : "IRON_CONDOR";
  }
  return undefined;
}

const rank = (level: string | undefined | null) => Number(/^LV([1-4])$/.exec(level ?? "")?.[1] ?? 0);

/**
 * The level a strategy needs, as the upstream decides it: LV1 covered calls; LV2 long singles, cash-secured puts,
 * long straddles and strangles; LV3 defined-risk spreads; LV4 uncovered calls, short straddles/strangles, ratios.
 * Orders that only reduce held contracts need no level (`held`: quantity held by symbol, OCC or stock).
 */
export function requiredOptionLevel(
  strategy: OptionStrategyName,
  legs: StrategyLeg[],
  units: string,
  held: Record<string, string> = {},
): number {
  const have = (symbol?: string) => new Decimal((symbol && held[symbol]) || "0");
  const closing = legs.every((l) => {
    const q = new Decimal(l.ratio).times(units || "0");
    return l.side === "SELL" ? have(l.symbol).gte(q) && q.gt(0) : have(l.symbol).neg().gte(q) && q.gt(0);
  });
  if (closing) return 0;
  switch (strategy) {
    case "SINGLE": {
      const [l] = legs;
      if (l.side === "BUY" || l.option_type === "PUT") return 2;
      const root = l.symbol?.replace(/\d{6}[CP]\d{8}$/, "");
      return have(root).gte(new Decimal(units || "0").times(l.multiplier ?? "100")) ? 1 : 4;
    }
    case "STRADDLE":
    case "STRANGLE":
      return legs.every((l) => l.side === "BUY") ? 2 : 4;
    case "RATIO":
      return 4;
    default:
      return 3;
  }
}

/** Why the account cannot trade this, or undefined when its level is enough. */
export function optionLevelProblem(
  accountLevel: string | undefined | null,
  strategy: OptionStrategyName,
  legs: StrategyLeg[],
  units: string,
  held?: Record<string, string>,
): string | undefined {
  const need = requiredOptionLevel(strategy, legs, units, held);
  if (rank(accountLevel) >= need) return undefined;
  const what = `${STRATEGY_LABELS[strategy]} (${legs.map((l) => `${l.side} ${l.option_type}`).join(" / ")})`;
  return `${what} needs option level LV${need}; the account has ${accountLevel || "no option level"}.`;
}
