import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell as cliCell, csvLine as cliLine } from "@/cli/src/output/csv";
import { progressBar } from "@/cli/src/output/progress";
import { chooseFormat, render, tabulate, toTable } from "@/cli/src/output/render";
import { csvCell, csvLine } from "@/lib/csv";

describe("CSV", () => {
  it("writes every value as the desk's exports do (lib/csv.ts)", () => {
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "a", "é", " ", "1", ".") }),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(cliCell(v)).toBe(csvCell(v));
      }),
    );
    fc.assert(
      fc.property(fc.array(value), (values) => {
        expect(cliLine(values)).toBe(csvLine(values));
      }),
    );
  });

  it("starts with a byte order mark, ends lines with CRLF, flattens nested objects into dotted columns", () => {
    const output = {
      rows: [
        { id: "1", amount: { value: "-5.00", currency: "USD" }, tags: ["a", "b"], note: "=SUM(A1)" },
        { id: "2", amount: { value: "7.25", currency: "HKD" }, extra: true },
      ],
      next_cursor: null,
    };
    expect(render(output, "csv")).toBe(
      "\uFEFFid,amount.value,amount.currency,tags,note,extra\r\n" + '1,-5.00,USD,"[""a"",""b""]",\'=SUM(A1),\r\n' + "2,7.25,HKD,,,true\r\n",
    );
  });

  it("writes the schema's columns even when the list is empty", () => {
    const schema = {
      type: "object",
      properties: { watchlists: { type: "array", items: { type: "object", properties: { watchlist_id: {}, name: {} } } } },
    };
    expect(render({ watchlists: [] }, "csv", schema)).toBe("\uFEFFwatchlist_id,name\r\n");
  });
});

describe("tables and JSON", () => {
  it("finds the answer's list: rows, else its one array of objects, else the answer as one row", () => {
    expect(tabulate({ rows: [{ a: 1 }], next_cursor: "x" })).toMatchObject({ columns: ["a"], list: true });
    expect(tabulate({ watchlist_id: "w", instruments: [{ symbol: "AAPL" }] })).toMatchObject({ columns: ["symbol"], list: true });
    expect(tabulate({ account: { id: "a" }, balance: [] })).toMatchObject({ columns: ["account.id", "balance"], list: false });
  });

  it("aligns a list's columns and shows one record as field / value lines", () => {
    expect(
      toTable(
        tabulate({
          rows: [
            { id: "1", symbol: "AAPL" },
            { id: "22", symbol: null },
          ],
        }),
      ),
    ).toBe("ID  SYMBOL\n1   AAPL\n22\n");
    expect(toTable(tabulate({ state: "connected", lag_ms: 120 }))).toBe("state   connected\nlag_ms  120\n");
    expect(toTable(tabulate({ rows: [] }))).toBe("(no rows)\n");
    expect(toTable(tabulate({ rows: [{ note: "x".repeat(100) }] })).split("\n")[1]).toHaveLength(48);
  });

  it("prints JSON as the desk answered it", () => {
    const output = { rows: [{ a: { b: [1] } }], next_cursor: null };
    expect(JSON.parse(render(output, "json"))).toEqual(output);
  });

  it("picks a table on a terminal and JSON otherwise, unless told", () => {
    expect(chooseFormat(undefined, {}, true)).toBe("table");
    expect(chooseFormat(undefined, {}, false)).toBe("json");
    expect(chooseFormat(undefined, { BROKERDESK_OUTPUT: "csv" }, true)).toBe("csv");
    expect(chooseFormat("json", { BROKERDESK_OUTPUT: "csv" }, true)).toBe("json");
    expect(() => chooseFormat("xml", {}, true)).toThrow(/json, csv, table/);
  });
});

describe("the progress bar", () => {
  const stream = (isTTY: boolean) => {
    const written: string[] = [];
    return { isTTY, written, write: (t: string) => written.push(t) };
  };

  it("draws on a terminal, with the pages and rows read, and ends its line", () => {
    const s = stream(true);
    let t = 0;
    const bar = progressBar(s, "export:", () => t);
    bar.page(200);
    t += 100;
    bar.page(200);
    bar.done();
    expect(s.written.at(-2)).toMatch(/^\rexport: [█░]{20} 2 pages · 400 rows\x1b\[K$/);
    expect(s.written.at(-1)).toBe("\n");
  });

  it("writes nothing off a terminal", () => {
    const s = stream(false);
    const bar = progressBar(s, "export:");
    bar.page(10);
    bar.done();
    expect(s.written).toEqual([]);
  });
});
