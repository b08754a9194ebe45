import "server-only";
import type { Queryable } from "@/server/db/engine";
import { idFrom } from "../ids";
import { Decimal } from "../money";
import { contractPrice } from "../trading/market";

/** Instrument master of the seed: ~50 stocks across US, HK and CN, option chains for four US underlyings. */
type Row = [symbol: string, name: string, sub: string, exchange: string, price: string, lot?: number];

const US: Row[] = [
  ["AAPL", "Apple Inc.", "COMMON_STOCK", "XNAS", "228.50"],
  ["MSFT", "Microsoft Corporation", "COMMON_STOCK", "XNAS", "415.20"],
  ["NVDA", "NVIDIA Corporation", "COMMON_STOCK", "XNAS", "131.40"],
  ["AMZN", "Amazon.com, Inc.", "COMMON_STOCK", "XNAS", "186.75"],
  ["GOOGL", "Alphabet Inc. Class A", "COMMON_STOCK", "XNAS", "167.30"],
  ["META", "Meta Platforms, Inc.", "COMMON_STOCK", "XNAS", "560.10"],
  ["TSLA", "Tesla, Inc.", "COMMON_STOCK", "XNAS", "248.90"],
  ["JPM", "JPMorgan Chase & Co.", "COMMON_STOCK", "XNYS", "212.45"],
  ["V", "Visa Inc.", "COMMON_STOCK", "XNYS", "281.60"],
  ["KO", "The Coca-Cola Company", "COMMON_STOCK", "XNYS", "68.20"],
  ["PEP", "PepsiCo, Inc.", "COMMON_STOCK", "XNAS", "171.05"],
  ["DIS", "The Walt Disney Company", "COMMON_STOCK", "XNYS", "96.30"],
  ["NFLX", "Netflix, Inc.", "COMMON_STOCK", "XNAS", "705.80"],
  ["AMD", "Advanced Micro Devices, Inc.", "COMMON_STOCK", "XNAS", "158.25"],
  ["INTC", "Intel Corporation", "COMMON_STOCK", "XNAS", "22.85"],
  ["XOM", "Exxon Mobil Corporation", "COMMON_STOCK", "XNYS", "117.40"],
  ["SPY", "SPDR S&P 500 ETF Trust", "ETF", "ARCX", "575.60"],
  ["QQQ", "Invesco QQQ Trust", "ETF", "XNAS", "492.10"],
  ["IWM", "iShares Russell 2000 ETF", "ETF", "ARCX", "221.35"],
  ["VTI", "Vanguard Total Stock Market ETF", "ETF", "ARCX", "285.90"],
  ["GLD", "SPDR Gold Shares", "ETF", "ARCX", "245.15"],
  ["TLT", "iShares 20+ Year Treasury Bond ETF", "ETF", "XNAS", "97.65"],
  ["BAC.PRL", "Bank of America 7.25% Non-Cum Perp Conv Pfd Ser L", "PREFERRED_STOCK", "XNYS", "1225.00"],
  ["WFC.PRL", "Wells Fargo 7.5% Non-Cum Perp Conv Cl A Pfd Ser L", "PREFERRED_STOCK", "XNYS", "1190.50"],
  ["JPM.PRD", "JPMorgan Chase 5.75% Non-Cum Pfd Ser DD", "PREFERRED_STOCK", "XNYS", "25.10"],
  ["SPCE.WS", "Virgin Galactic Holdings Warrants", "WARRANT", "XNYS", "0.42"],
  ["LCIDW", "Lucid Group Warrants", "WARRANT", "XNAS", "0.85"],
  ["CCIXU", "Churchill Capital Corp IX Units", "UNITS", "XNAS", "10.35"],
  ["GSRTU", "GSR III Acquisition Corp Units", "UNITS", "XNAS", "10.20"],
  ["ACAHR", "Atlantic Coastal Acquisition Rights", "RIGHT", "XNAS", "0.11"],
];
const HK: Row[] = [
  ["00700", "Tencent Holdings Ltd.", "COMMON_STOCK", "XHKG", "418.60", 100],
  ["09988", "Alibaba Group Holding Ltd.", "COMMON_STOCK", "XHKG", "98.45", 100],
  ["00005", "HSBC Holdings plc", "COMMON_STOCK", "XHKG", "71.30", 400],
  ["01299", "AIA Group Ltd.", "COMMON_STOCK", "XHKG", "62.15", 200],
  ["03690", "Meituan", "COMMON_STOCK", "XHKG", "158.70", 100],
  ["00941", "China Mobile Ltd.", "COMMON_STOCK", "XHKG", "74.05", 500],
  ["02800", "Tracker Fund of Hong Kong", "ETF", "XHKG", "20.12", 500],
  ["02828", "Hang Seng China Enterprises Index ETF", "ETF", "XHKG", "73.40", 200],
  ["03033", "CSOP Hang Seng TECH Index ETF", "ETF", "XHKG", "4.26", 200],
  ["13531", "HSBC Tencent Call Warrant", "WARRANT", "XHKG", "0.185", 10000],
  ["87001", "Hui Xian REIT Units", "UNITS", "XHKG", "0.93", 1000],
  ["02989", "Sample Rights Issue Nil-Paid Rights", "RIGHT", "XHKG", "0.05", 2000],
];
const CN: Row[] = [
  ["600519", "Kweichow Moutai Co., Ltd.", "COMMON_STOCK", "XSHG", "1482.00", 100],
  ["601318", "Ping An Insurance (Group) Co.", "COMMON_STOCK", "XSHG", "52.36", 100],
  ["000858", "Wuliangye Yibin Co., Ltd.", "COMMON_STOCK", "XSHE", "131.20", 100],
  ["600036", "China Merchants Bank Co., Ltd.", "COMMON_STOCK", "XSHG", "38.45", 100],
  ["300750", "Contemporary Amperex Technology Co.", "COMMON_STOCK", "XSHE", "245.80", 100],
  ["601398", "Industrial and Commercial Bank of China", "COMMON_STOCK", "XSHG", "6.42", 100],
  ["510300", "Huatai-PineBridge CSI 300 ETF", "ETF", "XSHG", "3.98", 100],
  ["110059", "SPDB Convertible Units", "UNITS", "XSHG", "104.50", 10],
];

/** The seed's price of each stock (`MARKET:SYMBOL`): what reference data derived from a price is fixed to. */
export const SEED_PRICES: ReadonlyMap<string, string> = new Map(
  (
    [
      ["US", US],
      ["HK", HK],
      ["CN", CN],
    ] as const
  ).flatMap(([m, rows]) => rows.map((r) => [`${m}:${r[0]}`, r[4]] as const)),
);

const CURRENCY = { US: "USD", HK: "HKD", CN: "CNH" } as const;
const CATEGORY = { US: "US_STOCK", HK: "HK_STOCK", CN: "CN_STOCK" } as const;
export const OPTION_UNDERLYINGS = ["AAPL", "SPY", "TSLA", "NVDA"];
/** Each option root's volatility at the seed: its chain is priced at it (Black–Scholes), so prices follow strikes. */
const OPTION_VOLS: Record<string, number> = { AAPL: 0.26, SPY: 0.16, TSLA: 0.58, NVDA: 0.48 };

export const instrumentId = (market: string, symbol: string) => idFrom(`instrument:${market}:${symbol}`);

/** Third Friday of a month (UTC), the monthly option expiration. */
export function thirdFriday(year: number, month: number): Date {
  const first = new Date(Date.UTC(year, month, 1));
  return new Date(Date.UTC(year, month, 1 + ((5 - first.getUTCDay() + 7) % 7) + 14));
}

export function occSymbol(root: string, expiry: Date, type: "CALL" | "PUT", strike: Decimal.Value): string {
  const ymd = expiry.toISOString().slice(2, 10).replace(/-/g, "");
  return `${root}${ymd}${type[0]}${new Decimal(strike).times(1000).toFixed(0).padStart(8, "0")}`;
}

/** Two monthly expirations after the anchor, plus the Friday of the anchor's next week. */
export function expirations(anchor: Date): Date[] {
  const out: Date[] = [];
  for (let m = 0; out.length < 2; m += 1) {
    const f = thirdFriday(anchor.getUTCFullYear(), anchor.getUTCMonth() + m);
    if (f > anchor) out.push(f);
  }
  const weekly = new Date(anchor.getTime() + (((5 - anchor.getUTCDay() + 7) % 7) + 7) * 86_400_000);
  if (!out.some((d) => d.getTime() === weekly.getTime())) out.push(weekly);
  return out;
}

export function strikesFor(price: Decimal.Value): Decimal[] {
  const p = new Decimal(price);
  const step = p.gt(300) ? new Decimal(10) : p.gt(100) ? new Decimal(5) : new Decimal(1);
  const atm = p.div(step).round().times(step);
  return [-2, -1, 0, 1, 2].map((k) => atm.plus(step.times(k)));
}

export async function seedCatalog(db: Queryable, anchor: Date): Promise<void> {
  for (const [market, rows] of [
    ["US", US],
    ["HK", HK],
    ["CN", CN],
  ] as const) {
    for (const [i, [symbol, name, sub, exchange, last, lot]] of rows.entries()) {
      const common = sub === "COMMON_STOCK" || sub === "ETF";
      const margin = common ? (i % 3 === 0 ? "0.3" : "0.5") : "1";
      const profile = {
        name,
        exchange_code: exchange,
        status: "OC",
        shortable: market === "US" && common,
        fractionable: market === "US" && common,
        marginable: common,
        overnight_trading_supported: market === "US" && common && i < 12,
        margin_requirement_long: margin,
        margin_requirement_short: common ? "1.5" : "1",
        intraday_margin_long: common ? "0.25" : "1",
        intraday_margin_short: common ? "1.25" : "1",
        maintenance_margin_long: common ? "0.25" : "1",
        maintenance_margin_short: common ? "1.3" : "1",
        easy_to_borrow: market === "US" && i % 4 !== 3,
        lot_size: String(lot ?? 1),
        ...(sub === "ETF" ? { etf_leveraged: false, etf_inverse: false, etf_commission_free: i % 2 === 0 } : {}),
      };
      const locate =
        market === "US" && common
          ? {
              shortable: "Y",
              short_type: i % 4 === 3 ? "HTB" : "ETB",
              available_num: String(50_000 + i * 7_500),
              short_interest_rate: i % 4 === 3 ? "0.1250" : "0.0025",
            }
          : { shortable: "N", short_type: "HTB", available_num: "0", short_interest_rate: "0" };
      await db.query(
        `INSERT INTO sandbox.instruments (instrument_id, symbol, market, category, sub_category, currency, last_price, profile, locate)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [
          instrumentId(market, symbol),
          symbol,
          market,
          CATEGORY[market],
          sub,
          CURRENCY[market],
          last,
          JSON.stringify(profile),
          JSON.stringify(locate),
        ],
      );
    }
  }
  for (const root of OPTION_UNDERLYINGS) {
    const spot = new Decimal(US.find((r) => r[0] === root)![4]);
    for (const expiry of expirations(anchor)) {
      for (const strike of strikesFor(spot)) {
        for (const type of ["CALL", "PUT"] as const) {
          const symbol = occSymbol(root, expiry, type, strike);
          const contract = { type, strike, expiry: expiry.toISOString().slice(0, 10) };
          const last = contractPrice(contract, spot, OPTION_VOLS[root], anchor);
          const deliverables = [
            { type: "EQUITY", symbol: root, amount: "100", allocation_percentage: "100", settlement_type: "T+1", settlement_method: "CCC" },
          ];
          await db.query(
            `INSERT INTO sandbox.option_contracts (instrument_id, symbol, root_symbol, option_type, strike_price, expiration_date, style, status,
               ppind, last_price, multiplier, deliverables) VALUES ($1,$2,$3,$4,$5,$6,'AMERICAN','ACTIVE',$7,$8,100,$9)`,
            [
              idFrom(`option:${symbol}`),
              symbol,
              root,
              type,
              strike.toFixed(),
              expiry.toISOString().slice(0, 10),
              root !== "NVDA",
              last.toFixed(),
              JSON.stringify(deliverables),
            ],
          );
        }
      }
    }
  }
  for (const ca of corporateActions(anchor)) {
    await db.query("INSERT INTO sandbox.corporate_actions (event_id, detail) VALUES ($1, $2)", [ca.event_id, JSON.stringify(ca)]);
  }
}

function corporateActions(anchor: Date) {
  const day = (n: number) => new Date(anchor.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  const base = (event_id: string, event_type: string, market: string, symbol: string, name: string, exchange: string, offset: number) => ({
    event_id,
    event_type,
    event_version: 1,
    instrument_id: instrumentId(market, symbol),
    category: `${market}_STOCK`,
    record_date: day(offset),
    ex_date: day(offset),
    payment_date: day(offset + 14),
    final_pay_date: day(offset + 14),
    from: { symbol, name, exchange },
  });
  return [
    {
      ...base("CA-AAPL-DIV-1", "DIVIDEND", "US", "AAPL", "Apple Inc.", "XNAS", -30),
      to: onlyOption("Cash dividend USD 0.25 per share", [cashPayout("USD", "0.25")]),
    },
    {
      ...base("CA-NVDA-SPLIT-1", "FORWARD_SPLIT", "US", "NVDA", "NVIDIA Corporation", "XNAS", 20),
      to: onlyOption("10-for-1 forward split", [stockPayout("USD", "10")]),
    },
    {
      ...base("CA-00700-DIV-1", "DIVIDEND", "HK", "00700", "Tencent Holdings Ltd.", "XHKG", -45),
      to: onlyOption("Final dividend HKD 3.40 per share", [cashPayout("HKD", "3.40")]),
    },
    {
      ...base("CA-INTC-MERGER-1", "MERGER", "US", "INTC", "Intel Corporation", "XNAS", 60),
      to: onlyOption("Sample merger: 0.5 share plus USD 2.00 cash", [stockPayout("USD", "0.5"), cashPayout("USD", "2.00")]),
    },
  ];
}

/** A corporate action's `to` list when the holder has one choice: option 1, the default. */
function onlyOption(description: string, payouts: ReturnType<typeof cashPayout>[]) {
  return [{ option_number: 1, description, default_option_flag: true, payouts }];
}

/** Cash paid per share held. */
function cashPayout(currency: string, amount: string) {
  return { type: "CASH", pay_type: "CASH", currency, amount, from_ratio: "1", to_ratio: "1" };
}

/** New shares delivered: `toRatio` shares for each one held. */
function stockPayout(currency: string, toRatio: string) {
  return { type: "SECURITY", pay_type: "STOCK", currency, amount: "0", from_ratio: "1", to_ratio: toRatio };
}
