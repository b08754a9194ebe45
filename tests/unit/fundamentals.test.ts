import { describe, expect, it } from "vitest";
import { facts } from "@/server/broker/schemas/fundamentals";
import { createFundamentals, TAB_TTL_MS } from "@/server/fundamentals/fundamentals";
import { createInstrumentMaster, MASTER_TTL_MS } from "@/server/fundamentals/instrument-master";

/**
 * The instrument page's reference data: the upstream's records parsed whatever their wrapping (numbers as decimal
 * strings), presented as the tabs show them, and kept for their lifetime: a second read within it makes no
 * upstream call, a read after it does, a failure is not kept.
 */
const INSTRUMENTS = [
  { instrument_id: "i-aapl", symbol: "AAPL", market: "US", name: "Apple Inc.", sub_category: "COMMON_STOCK", currency: "USD" },
  { instrument_id: "i-spy", symbol: "SPY", market: "US", name: "SPDR S&P 500 ETF Trust", sub_category: "ETF", currency: "USD" },
  { instrument_id: "i-amd", symbol: "AMD", market: "US", name: "Advanced Micro Devices", sub_category: "COMMON_STOCK", currency: "USD" },
];

function setup() {
  let clock = 1_000_000;
  const now = () => clock;
  const calls: string[] = [];
  const answer = (name: string, body: unknown) => async () => {
    calls.push(name);
    return facts.parse(body);
  };
  let profileFails = false;
  const client = {
    listStockInstruments: async (input: { symbols?: string[] }) => {
      calls.push("listStockInstruments");
      const items = INSTRUMENTS.filter((i) => !input.symbols || input.symbols.includes(i.symbol));
      return { items: items as never[], nextCursor: undefined };
    },
    getCompanyProfile: async () => {
      calls.push("getCompanyProfile");
      if (profileFails) throw new Error("upstream down");
      return facts.parse({ data: { symbol: "AAPL", name: "Apple Inc.", employees: 164000, ceo: "T. Cook", fiscal_year: 2026 } });
    },
    getAnalystRating: answer("getAnalystRating", [{ rating: "BUY", analysts: 40 }]),
    getAnalystTargetPrice: answer("getAnalystTargetPrice", { data: [{ target_price: 250.5, high_price: "300", currency: "USD" }] }),
    listEarningsCalendar: answer("listEarningsCalendar", []),
    listDividendCalendar: answer("listDividendCalendar", { data: [] }),
    getIncomeStatements: answer("getIncomeStatements", [
      {
        fiscal_period: "2026Q3",
        revenue: "94930000000",
        operating_income: "23576459638",
        eps: "1.64",
        shares_outstanding: "15000000000",
        currency: "USD",
      },
      {
        fiscal_period: "2026Q2",
        revenue: "85777000000",
        operating_income: "20370309145",
        eps: "1.40",
        shares_outstanding: "15100000000",
        currency: "USD",
      },
    ]),
    getCashFlows: answer("getCashFlows", []),
    getBalanceSheets: answer("getBalanceSheets", []),
    getFundBrief: answer("getFundBrief", { name: "SPDR S&P 500 ETF Trust", expense_ratio: "0.0945" }),
    getFundHoldings: answer("getFundHoldings", {
      list: [
        { symbol: "AAPL", weight: "0.071" },
        { symbol: "MSFT", weight: "0.065" },
      ],
    }),
    getFundPerformance: answer("getFundPerformance", []),
    listMarketCorporateActions: answer("listMarketCorporateActions", []),
    getStockLocate: async () => ({
      symbol: "AAPL",
      shortable: true,
      short_type: "ETB",
      available_num: "1000",
      short_interest_rate: "0.25",
    }),
  };
  const master = createInstrumentMaster(() => client as never, now);
  const f = createFundamentals({ client: () => client as never, master, now });
  return {
    f,
    master,
    calls,
    count: (name: string) => calls.filter((c) => c === name).length,
    advance: (ms: number) => (clock += ms),
    failProfile: (v: boolean) => (profileFails = v),
  };
}

describe("fundamentals records", () => {
  it("reads an object, an array, or either under data or list, numbers as decimal strings", () => {
    expect(facts.parse({ a: 1.5, b: "x", c: true })).toEqual([{ a: "1.5", b: "x", c: true }]);
    expect(facts.parse([{ a: 1 }, { a: 2 }])).toEqual([{ a: "1" }, { a: "2" }]);
    expect(facts.parse({ data: { a: 1 } })).toEqual([{ a: "1" }]);
    expect(facts.parse({ data: [{ a: 1 }] })).toEqual([{ a: "1" }]);
    expect(facts.parse({ list: [{ a: 1 }] })).toEqual([{ a: "1" }]);
    expect(facts.parse({ data: null })).toEqual([]);
  });
});

describe("instrument tabs", () => {
  it("shows a profile as one record, and a second read within its lifetime makes no upstream call", async () => {
    const t = setup();
    const first = await t.f.tab("US", "AAPL", "profile");
    expect(first.sections[0].layout).toBe("record");
    expect(first.sections[0].rows[0]).toMatchObject({ name: "Apple Inc.", employees: "164000", ceo: "T. Cook" });
    expect(first.sections[0].columns.find((c) => c.key === "ceo")?.label).toBe("CEO");
    // A year is written as it is, not as a number with separators.
    expect(first.sections[0].columns.find((c) => c.key === "employees")?.numeric).toBe(true);
    expect(first.sections[0].columns.find((c) => c.key === "fiscal_year")?.numeric).toBe(false);
    await t.f.tab("US", "aapl", "profile");
    t.advance(TAB_TTL_MS.profile - 1);
    await t.f.tab("US", "AAPL", "profile");
    expect(t.count("getCompanyProfile")).toBe(1);
    t.advance(2);
    await t.f.tab("US", "AAPL", "profile");
    expect(t.count("getCompanyProfile")).toBe(2);
  });

  it("keeps analyst views minutes, not hours", async () => {
    const t = setup();
    await t.f.tab("US", "AAPL", "analyst");
    t.advance(TAB_TTL_MS.analyst + 1);
    const again = await t.f.tab("US", "AAPL", "analyst");
    expect(t.count("getAnalystRating")).toBe(2);
    const target = again.sections[1];
    expect(target.currency).toBe("USD");
    expect(target.columns.find((c) => c.key === "target_price")).toMatchObject({ numeric: true, money: true });
  });

  it("does not keep a failure: the next read asks again", async () => {
    const t = setup();
    t.failProfile(true);
    await expect(t.f.tab("US", "AAPL", "profile")).rejects.toThrow("upstream down");
    t.failProfile(false);
    await t.f.tab("US", "AAPL", "profile");
    expect(t.count("getCompanyProfile")).toBe(2);
  });

  it("shows statements as line items by period, shares without the currency", async () => {
    const t = setup();
    const income = (await t.f.tab("US", "AAPL", "statements")).sections[0];
    expect(income.columns.map((c) => c.label)).toEqual(["Line item", "2026Q3", "2026Q2"]);
    expect(income.rows.find((r) => r.item === "Revenue")).toMatchObject({ "2026Q3": "94930000000", __money: true });
    expect(income.rows.find((r) => r.item === "Shares outstanding")).toMatchObject({ __money: false });
    // "operating" is not "rating": a name's words decide, not its letters.
    expect(income.rows.find((r) => r.item === "Operating income")).toMatchObject({ __money: true });
    expect(income.currency).toBe("USD");
  });

  it("gives an ETF fund data instead of statements, with no upstream call for what it does not have", async () => {
    const t = setup();
    const fund = await t.f.tab("US", "SPY", "fund");
    expect(fund.sections.map((s) => s.title)).toEqual(["Fund brief", "Performance", "Top holdings"]);
    // Holdings name other instruments: their symbols stay; a weight written as a fraction is shown in percent.
    expect(fund.sections[2].columns.map((c) => [c.key, !!c.percent])).toEqual([
      ["symbol", false],
      ["weight", true],
    ]);
    expect(fund.sections[0].columns.find((c) => c.key === "expense_ratio")?.percent).toBe(true);
    const statements = await t.f.tab("US", "SPY", "statements");
    expect(statements.sections[0].empty).toBe("Not offered for this instrument.");
    expect(t.count("getIncomeStatements")).toBe(0);
  });

  it("shows margin requirements from the instrument master as fractions shown in percent", async () => {
    const t = setup();
    const margin = await t.f.tab("US", "AAPL", "margin");
    expect(margin.sections[0].columns.filter((c) => c.percent).map((c) => c.key)).toEqual(["long", "short"]);
  });
});

describe("instrument master", () => {
  it("finds by symbol prefix and by a word of the name, from one listing kept an hour", async () => {
    const t = setup();
    expect((await t.master.search("A")).map((i) => i.symbol)).toEqual(["AAPL", "AMD"]);
    expect((await t.master.search("micro")).map((i) => i.symbol)).toEqual(["AMD"]);
    expect((await t.master.search("spdr"))[0]).toMatchObject({ symbol: "SPY", isEtf: true, market: "US" });
    expect(t.count("listStockInstruments")).toBe(1);
    t.advance(MASTER_TTL_MS + 1);
    await t.master.search("apple");
    expect(t.count("listStockInstruments")).toBe(2);
  });

  it("names an unknown symbol as not found", async () => {
    const t = setup();
    await expect(t.master.get("US", "ZZZZ")).rejects.toThrow("No US instrument has the symbol ZZZZ.");
  });
});
