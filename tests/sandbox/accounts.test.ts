import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { engines, masterAccountId, newAccount, rid, startFixture, w8ben, type Fixture } from "./fixture";

describe.each(engines)("virtual accounts on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  it.each(["resource", "legacy"] as const)("creates an ACTIVE account numbered V + BD + external number (%s path)", async (style) => {
    const body = newAccount({ trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"], option_level: "LV2" });
    const r = await f.sha1.op("createVirtualAccount", style, { body });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      client_request_id: body.client_request_id,
      account_number: `VBD${body.external_account_number}`,
      account_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      account_status: "ACTIVE",
    });
    const got = await f.api.op("getVirtualAccount", style, { query: { account_id: r.body.account_id } });
    expect(got.body).toMatchObject({
      account_id: r.body.account_id,
      belong_account_id: masterAccountId(),
      belong_account_number: "FV000123",
      account_type: "MARGIN",
      option_level: "LV2",
      trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"],
      w8ben_info: w8ben,
    });
  });

  it("is idempotent on client_request_id: same body → first result, other body → DUPLICATE_CLIENT_REQUEST_ID", async () => {
    const body = newAccount();
    const first = await f.api.op("createVirtualAccount", "resource", { body });
    const again = await f.api.op("createVirtualAccount", "legacy", { body: { ...body } });
    expect(again.body).toEqual(first.body);
    const other = await f.api.op("createVirtualAccount", "resource", { body: { ...body, account_type: "CASH" } });
    expect(errorOf(other)).toEqual({ status: 417, code: "DUPLICATE_CLIENT_REQUEST_ID" });
  });

  it("requires option_level with US_OPTION_NORMAL and never above the master's LV3", async () => {
    const missing = await f.api.op("createVirtualAccount", "resource", { body: newAccount({ trading_permissions: ["US_OPTION_NORMAL"] }) });
    expect(errorOf(missing)).toEqual({ status: 417, code: "OPTION_LEVEL_REQUIRED" });
    const lv4 = await f.api.op("createVirtualAccount", "resource", {
      body: newAccount({ trading_permissions: ["US_OPTION_NORMAL"], option_level: "LV4" }),
    });
    expect(errorOf(lv4)).toEqual({ status: 417, code: "OPTION_LEVEL_EXCEEDS_MASTER" });
    const lv3 = await f.api.op("createVirtualAccount", "resource", {
      body: newAccount({ trading_permissions: ["US_OPTION_NORMAL"], option_level: "LV3" }),
    });
    expect(lv3.status).toBe(200);
    const bad = await f.api.op("createVirtualAccount", "resource", { body: newAccount({ option_level: "LV9" }) });
    expect(errorOf(bad)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it.each(["first_name", "last_name", "middle_name", "home_address", "mail_address"])("requires w8ben_info.%s", async (field) => {
    const partial: Record<string, unknown> = { ...w8ben };
    delete partial[field];
    const r = await f.api.op("createVirtualAccount", "resource", { body: newAccount({ w8ben_info: partial }) });
    expect(errorOf(r)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(r.body.message).toContain(`w8ben_info.${field}`);
  });

  it("validates the other create fields", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ client_request_id: "x".repeat(33) }, "ILLEGAL_PARAMETER"],
      [{ client_request_id: "bad id!" }, "ILLEGAL_PARAMETER"],
      [{ external_account_number: "12345678901" }, "ILLEGAL_PARAMETER"],
      [{ account_type: "CRYPTO" }, "ILLEGAL_PARAMETER"],
      [{ trading_permissions: [] }, "ILLEGAL_PARAMETER"],
      [{ belong_account_id: "0".repeat(32) }, "ACCOUNT_NOT_FOUND"],
    ];
    for (const [over, code] of cases)
      expect(errorOf(await f.api.op("createVirtualAccount", "resource", { body: newAccount(over) }))).toEqual({ status: 417, code });
    const first = newAccount();
    await f.api.op("createVirtualAccount", "resource", { body: first });
    const dup = await f.api.op("createVirtualAccount", "resource", {
      body: newAccount({ external_account_number: first.external_account_number }),
    });
    expect(errorOf(dup)).toEqual({ status: 417, code: "DUPLICATE_EXTERNAL_ACCOUNT_NUMBER" });
  });

  it("updates permissions, level, W-8BEN and status; keeps type and owner fixed; CLOSED is final", async () => {
    const created = (await f.api.op("createVirtualAccount", "resource", { body: newAccount() })).body;
    const id = created.account_id;
    const upd = await f.api.op("updateVirtualAccount", "legacy", {
      body: {
        client_request_id: rid("u"),
        account_id: id,
        trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"],
        option_level: "LV1",
        w8ben_info: { ...w8ben, first_name: "Grace" },
      },
    });
    expect(upd.body).toMatchObject({ account_id: id, account_status: "ACTIVE" });
    const got = (await f.api.op("getVirtualAccount", "resource", { query: { account_id: id } })).body;
    expect(got).toMatchObject({ option_level: "LV1", w8ben_info: { first_name: "Grace" } });
    const noLevel = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: id, trading_permissions: ["US_OPTION_NORMAL"], option_level: "LV4" },
    });
    expect(errorOf(noLevel)).toEqual({ status: 417, code: "OPTION_LEVEL_EXCEEDS_MASTER" });
    const fixed = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: id, account_type: "CASH" },
    });
    expect(errorOf(fixed)).toEqual({ status: 417, code: "FIELD_NOT_UPDATABLE" });
    const back = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: id, account_status: "CREATED" },
    });
    expect(errorOf(back)).toEqual({ status: 417, code: "INVALID_STATUS_TRANSITION" });
    const close = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: id, account_status: "CLOSED" },
    });
    expect(close.body.account_status).toBe("CLOSED");
    const after = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: id, commission_code: "COMMISSION_GROUP_2" },
    });
    expect(errorOf(after)).toEqual({ status: 417, code: "ACCOUNT_CLOSED" });
    const unknown = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("u"), account_id: "f".repeat(32) },
    });
    expect(errorOf(unknown)).toEqual({ status: 417, code: "ACCOUNT_NOT_FOUND" });
    expect(errorOf(await f.api.op("getVirtualAccount", "resource", { query: { account_id: "f".repeat(32) } }))).toEqual({
      status: 417,
      code: "ACCOUNT_NOT_FOUND",
    });
  });

  it("lists with pagination_key on resource paths and last_account_id on legacy paths, covering every account once", async () => {
    const total = (await f.sb.engine.query<{ n: number }>("SELECT count(*)::int AS n FROM sandbox.virtual_accounts")).rows[0].n;
    const seen: string[] = [];
    let key: string | undefined;
    do {
      const r = await f.api.op("listVirtualAccounts", "resource", { query: { page_size: 7, ...(key ? { pagination_key: key } : {}) } });
      expect(Array.isArray(r.body.data)).toBe(true);
      seen.push(...r.body.data.map((a: { account_id: string }) => a.account_id));
      key = r.body.pagination_key;
    } while (key);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);

    const legacy: string[] = [];
    let last: string | undefined;
    for (;;) {
      const r = await f.api.op("listVirtualAccounts", "legacy", { query: { page_size: 9, ...(last ? { last_account_id: last } : {}) } });
      expect(Array.isArray(r.body)).toBe(true);
      legacy.push(...r.body.map((a: { account_id: string }) => a.account_id));
      if (r.body.length < 9) break;
      last = r.body[r.body.length - 1].account_id;
    }
    expect(legacy).toEqual(seen);
    const dflt = await f.api.op("listVirtualAccounts", "legacy");
    expect(dflt.body).toHaveLength(10);
    for (const size of [0, 201, "x"]) {
      expect(errorOf(await f.api.op("listVirtualAccounts", "resource", { query: { page_size: size } }))).toEqual({
        status: 417,
        code: "ILLEGAL_PARAMETER",
      });
    }
  });

  it("lists every account exactly as getVirtualAccount shows it: the same fields, nulls omitted, the same times", async () => {
    const china = { first_name: "Ada", last_name: "Quantum", id_type: "PASSPORT", id_number: "P1", country_of_issuance: "HK" };
    const withChina = await f.api.op("createVirtualAccount", "resource", {
      body: newAccount({ china_connect_investor_info: china, commission_code: 'C"\\ü\n' }),
    });
    const bare = await f.api.op("createVirtualAccount", "resource", { body: newAccount({ w8ben_info: undefined }) });
    // An update without china_connect_investor_info stores JSON null there: listed as absent, like a SQL NULL.
    await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("upd"), account_id: bare.body.account_id, account_status: "SUSPENDED" },
    });
    const listed: Record<string, unknown>[] = [];
    let key: string | undefined;
    do {
      const r = await f.api.op("listVirtualAccounts", "resource", { query: { page_size: 50, ...(key ? { pagination_key: key } : {}) } });
      listed.push(...r.body.data);
      key = r.body.pagination_key;
    } while (key);
    expect(listed.map((a) => a.account_id)).toEqual(expect.arrayContaining([withChina.body.account_id, bare.body.account_id]));
    for (const a of listed) {
      const got = await f.api.op("getVirtualAccount", "resource", { query: { account_id: String(a.account_id) } });
      expect(a).toStrictEqual(got.body);
      expect(Object.keys(a)).toEqual(Object.keys(got.body));
    }
    const legacy = await f.api.op("listVirtualAccounts", "legacy", { query: { page_size: 200 } });
    expect(legacy.body).toStrictEqual(listed);
  });

  it("filters by status, type, level, permission, number, external number, name and creation time", async () => {
    const q = async (query: Record<string, string | number>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
      (await f.api.op("listVirtualAccounts", "resource", { query: { page_size: 200, ...query } })).body.data as Record<string, any>[];
    expect((await q({ account_status: "FROZEN" })).every((a) => a.account_status === "FROZEN")).toBe(true);
    expect(await q({ account_status: "FROZEN,CLOSED" })).toHaveLength(4 + (await q({ account_status: "CLOSED" })).length - 2);
    expect((await q({ account_type: "CASH" })).every((a) => a.account_type === "CASH")).toBe(true);
    expect((await q({ option_level: "LV2" })).every((a) => a.option_level === "LV2")).toBe(true);
    const hk = await q({ trading_permission: "HK_STOCK_NORMAL" });
    expect(hk.length).toBeGreaterThan(0);
    expect(hk.every((a) => a.trading_permissions.includes("HK_STOCK_NORMAL"))).toBe(true);
    expect((await q({ account_number: "VBD1000001" })).map((a) => a.external_account_number)).toEqual(["1000001"]);
    expect((await q({ external_account_number: "1000002" })).map((a) => a.account_number)).toEqual(["VBD1000002"]);
    const named = await q({ name: "OLIVIA" });
    expect(named.length).toBeGreaterThan(0);
    expect(named.every((a) => `${a.w8ben_info.first_name} ${a.w8ben_info.last_name}`.toLowerCase().includes("olivia"))).toBe(true);
    const future = new Date(Date.now() + 86_400_000)
      .toISOString()
      .replace("Z", "+0000")
      .replace(/\.\d{3}/, ".000");
    expect(await q({ start_time: future })).toHaveLength(0);
    const all = await q({});
    const mid = all[Math.floor(all.length / 2)].create_time;
    const recent = await q({ start_time: mid });
    expect(recent.every((a) => a.create_time >= mid)).toBe(true);
    expect(recent.length).toBeLessThan(all.length);
    expect(errorOf(await f.api.op("listVirtualAccounts", "resource", { query: { account_status: "SLEEPING" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });

  it("finds names whatever their case and accents, and numbers whatever their case", async () => {
    const q = async (query: Record<string, string>) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
      (await f.api.op("listVirtualAccounts", "resource", { query: { page_size: 200, ...query } })).body.data as Record<string, any>[];
    const external = `z${Math.floor(Math.random() * 1e8)}`;
    const body = newAccount({ external_account_number: external, w8ben_info: { ...w8ben, first_name: "Zoë", last_name: "Núñez-Ørsted" } });
    const created = (await f.api.op("createVirtualAccount", "resource", { body })).body;
    for (const name of ["zoe", "ZOË", "Nunez", "núñez", "NUNEZ-ORSTED", "zoe nunez"]) {
      expect(
        (await q({ name })).map((a) => a.account_id),
        name,
      ).toContain(created.account_id);
    }
    expect(await q({ name: "zoe_" })).toHaveLength(0);
    expect((await q({ account_number: created.account_number.toLowerCase() })).map((a) => a.account_id)).toEqual([created.account_id]);
    expect((await q({ external_account_number: external.toUpperCase() })).map((a) => a.account_id)).toEqual([created.account_id]);
    expect((await q({ account_number: "vbd1000030" })).map((a) => a.external_account_number)).toEqual(["1000030"]);
    // An update that changes the W-8BEN name is folded too.
    await f.api.op("updateVirtualAccount", "resource", {
      body: {
        client_request_id: rid("u"),
        account_id: created.account_id,
        w8ben_info: { ...w8ben, first_name: "Chloé", last_name: "Müller" },
      },
    });
    expect((await q({ name: "chloe muller" })).map((a) => a.account_id)).toEqual([created.account_id]);
    expect((await q({ name: "zoe" })).map((a) => a.account_id)).not.toContain(created.account_id);
  });

  it("seeds ~40 accounts in every status", async () => {
    const { rows } = await f.sb.engine.query<{ account_status: string }>("SELECT DISTINCT account_status FROM sandbox.virtual_accounts");
    expect(rows.map((r) => r.account_status).sort()).toEqual(["ACTIVE", "CLOSED", "CREATED", "FROZEN", "RESTRICTED", "SUSPENDED"]);
  });
});
