import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, startFixture, type Fixture } from "./fixture";

/** 10,000 more accounts: list pages stay keyset scans on the index, deep pages included. */
describe.each(engines)("account list at scale on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
    await f.sb.engine.query(
      `INSERT INTO sandbox.virtual_accounts (account_id, account_number, external_account_number, belong_account_id, account_type,
         account_status, trading_permissions, search_name, created_at, updated_at)
       SELECT md5('scale' || g), 'VBDS' || g, 'S' || g, m.account_id, 'CASH', CASE WHEN g % 10 = 0 THEN 'FROZEN' ELSE 'ACTIVE' END,
              ARRAY['US_STOCK_NORMAL'], 'scale person ' || g, now() - g * interval '1 minute', now()
         FROM generate_series(1, 10000) g, sandbox.master_accounts m`,
    );
    await f.sb.engine.query("ANALYZE sandbox.virtual_accounts");
  }, 120_000);
  afterAll(() => f?.close());

  it("pages through 10,040 accounts with the keyset index and no OFFSET", async () => {
    let key: string | undefined;
    let pages = 0;
    let total = 0;
    do {
      const r = await f.api.op("listVirtualAccounts", "resource", { query: { page_size: 200, ...(key ? { pagination_key: key } : {}) } });
      total += r.body.data.length;
      key = r.body.pagination_key;
      pages += 1;
    } while (key);
    expect(total).toBe(10_040);
    expect(pages).toBe(51);
    const plan = await f.sb.engine.query<Record<string, string>>(
      `EXPLAIN SELECT * FROM sandbox.virtual_accounts v WHERE (v.created_at, v.account_id) < (now(), 'x')
        ORDER BY v.created_at DESC, v.account_id DESC LIMIT 11`,
    );
    expect(plan.rows.map((r) => Object.values(r)[0]).join("\n")).toMatch(/Index Scan.*virtual_accounts_page/);
    const filtered = await f.api.op("listVirtualAccounts", "legacy", { query: { account_status: "FROZEN", page_size: 5 } });
    expect(filtered.body).toHaveLength(5);
  });

  it("searches names and numbers through their indexes", async () => {
    // At 10,000 rows a scan of the table is as cheap as the index: forbid it, to see which index answers the filter.
    const explain = (where: string, param: string) =>
      f.sb.engine.transaction(async (tx) => {
        await tx.query("SET LOCAL enable_seqscan = off");
        const { rows } = await tx.query<Record<string, string>>(`EXPLAIN SELECT * FROM sandbox.virtual_accounts v WHERE ${where}`, [param]);
        return rows.map((r) => Object.values(r)[0]).join("\n");
      });
    expect(await explain("v.search_name LIKE '%' || sandbox.search_fold($1) || '%'", "PERSON 4242")).toMatch(
      /virtual_accounts_search_name/,
    );
    expect(await explain("upper(v.account_number) = upper($1)", "vbds4242")).toMatch(/virtual_accounts_account_number_ci/);
    expect(await explain("upper(v.external_account_number) = upper($1)", "s4242")).toMatch(/virtual_accounts_external_number_ci/);
    const found = await f.api.op("listVirtualAccounts", "resource", { query: { name: "Scale PERSON 4242", page_size: 10 } });
    expect(found.body.data.map((a: { account_number: string }) => a.account_number)).toEqual(["VBDS4242"]);
  });
});
