import { describe, expect, it } from "vitest";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { csvCell, csvLine } from "@/lib/csv";
import { ACCOUNT_CSV_COLUMNS, accountCsvRows } from "@/server/accounts/csv";
import type { BrokerClient } from "@/server/broker";
import type { ListVirtualAccountsInput, VirtualAccount } from "@/server/broker/schemas/accounts";

const account = (i: number): VirtualAccount =>
  ({
    account_id: `A${i}`,
    account_number: `VBD${i}`,
    external_account_number: String(i),
    account_type: "CASH",
    account_status: "ACTIVE",
    trading_permissions: ["US_STOCK_NORMAL", "HK_STOCK_NORMAL"],
    option_level: undefined,
    commission_code: "COMMISSION_GROUP_1",
    w8ben_info: { first_name: i === 2 ? "=cmd" : "Mei", last_name: `Chan, ${i}`, tax_id: "TX-SECRET" },
    create_time: "2026-11-01T00:00:00.000Z",
  }) as VirtualAccount;

/** A fake upstream with `total` accounts, paged by an opaque cursor; records every call. */
function fakeClient(total: number) {
  const calls: ListVirtualAccountsInput[] = [];
  const client = {
    listVirtualAccounts: async (input: ListVirtualAccountsInput) => {
      calls.push(input);
      const start = input.cursor ? Number(input.cursor) : 0;
      const size = input.page_size ?? 10;
      const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, k) => account(start + k + 1));
      return { items, nextCursor: start + size < total ? String(start + size) : undefined };
    },
  } as unknown as BrokerClient;
  return { client, calls };
}

describe("accounts list data function", () => {
  it("asks the upstream for exactly one page, with the table's filters", async () => {
    const { client, calls } = fakeClient(10_000);
    const page = await listAccountsPage(parseAccountListParams(new URLSearchParams("status=ACTIVE&q=1000007&size=50")), client);
    expect(calls).toEqual([{ account_status: ["ACTIVE"], external_account_number: "1000007", page_size: 50, cursor: undefined }]);
    expect(page.rows).toHaveLength(50);
    expect(page.nextCursor).toBe("50");
    expect(page.rows[0]).toMatchObject({ account_number: "VBD1", owner_name: "Mei Chan, 1" });
    expect(JSON.stringify(page)).not.toContain("TX-SECRET");
  });
});

describe("CSV export", () => {
  it("walks every upstream page of the filter and writes every row, without PII beyond the name", async () => {
    const { client, calls } = fakeClient(450);
    let text = csvLine(ACCOUNT_CSV_COLUMNS);
    for await (const row of accountCsvRows(parseAccountListParams(new URLSearchParams("type=CASH")), client)) text += csvLine(row);
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(451);
    expect(lines[0]).toBe("Account number,External number,Owner,Type,Status,Permissions,Option level,Commission code,Created (UTC)");
    expect(lines[1]).toBe('VBD1,1,"Mei Chan, 1",CASH,ACTIVE,US stocks; HK stocks,,COMMISSION_GROUP_1,2026-11-01T00:00:00.000Z');
    expect(calls.map((c) => c.cursor)).toEqual([undefined, "200", "400"]);
    expect(calls.every((c) => c.account_type === "CASH" && c.page_size === 200)).toBe(true);
    expect(text).not.toContain("TX-SECRET");
  });

  it("neutralises spreadsheet formulas and quotes separators", () => {
    expect(csvCell("=cmd")).toBe("'=cmd");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("plain")).toBe("plain");
  });

  it("keeps a negative amount a number a spreadsheet sums, and still neutralises what only starts like one", () => {
    expect(csvCell("-12.50")).toBe("-12.50");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell("-1+2")).toBe("'-1+2");
    expect(csvCell("-2-SUM(A1)")).toBe("'-2-SUM(A1)");
    expect(csvCell("-12.50\n=1")).toBe(`"'-12.50\n=1"`);
    expect(csvCell("+5")).toBe("'+5");
  });
});
