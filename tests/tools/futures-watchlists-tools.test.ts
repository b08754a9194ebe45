import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { roleAccess } from "../helpers/staff";
import { listAudit } from "@/server/audit/list";
import { createStaff } from "@/server/auth/staff";
import type { Staff } from "@/server/auth/guard";
import { setBrokerForTests } from "@/server/broker";
import { callTool, type ToolCaller } from "@/server/tools/call";
import { FUTURES_TOOLS } from "@/server/tools/spec/futures";
import { WATCHLIST_TOOLS } from "@/server/tools/spec/watchlists";
import type { Tool } from "@/server/tools/tool";
import { withAppDb } from "../helpers/app-db";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { engines, startFixture, type Fixture } from "../sandbox/fixture";

/**
 * The spec's futures and watchlist tools through `callTool` (what the MCP server and the skills endpoints run) against
 * a started sandbox: the official MCP tools' parameters in, the tools' output schemas out, the token's scope and the
 * staff member's permission enforced, every call audited with its upstream request id.
 */
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// No session in these calls: the caller is given (the pages' session reader is not loaded).
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const db = withAppDb();
let f: Fixture;
let caller: ToolCaller;
let n = 0;
const TOOLS = [...FUTURES_TOOLS, ...WATCHLIST_TOOLS];
const tool = (name: string): Tool => TOOLS.find((t) => t.name === name)!;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are checked field by field
const call = async (name: string, args: unknown = {}, who: ToolCaller = caller): Promise<any> => {
  const r = await callTool(tool(name), args, who);
  if (!r.ok) throw new Error(`${name}: ${r.code} ${r.message}`);
  return r.data;
};
const staffAs = async (role: Staff["role"], scopes: ToolCaller["scopes"] = ["read", "write"]): Promise<ToolCaller> => {
  const u = await createStaff(db(), { email: `${role}${++n}@tools.test`, name: `${role} ${n}`, role, password: "a long enough password" });
  return { staff: { id: u.id, email: u.email, name: u.name, ...roleAccess(role) }, scopes, meta: { channel: "skills", tokenId: null } };
};

beforeAll(async () => {
  f = await startFixture(engines[0], { marketDataRateLimit: 10_000 });
  setBrokerForTests(sandboxBroker(f.sb.url));
  caller = await staffAs("support");
}, 60_000);
afterAll(async () => {
  setBrokerForTests(undefined);
  await f?.close();
});

describe("futures and watchlist tools", () => {
  it("are the spec's eleven, under the spec's skill names, reads marked read-only and deletions destructive", () => {
    expect(TOOLS.map((t) => [t.name, t.skill, t.readOnly, !!t.destructive])).toEqual([
      ["get_futures_instruments", "instrument-futures-list", true, false],
      ["get_futures_products", "instrument-futures-products", true, false],
      ["get_futures_product_class", "instrument-futures-product-class", true, false],
      ["get_watchlists", "watchlist-list", true, false],
      ["create_watchlist", "watchlist-create", false, false],
      ["update_watchlist", "watchlist-update", false, false],
      ["delete_watchlist", "watchlist-delete", false, true],
      ["get_watchlist_instruments", "watchlist-instruments-list", true, false],
      ["add_watchlist_instruments", "watchlist-instruments-add", false, false],
      ["remove_watchlist_instruments", "watchlist-instruments-remove", false, true],
      ["update_watchlist_instruments", "watchlist-instruments-update", false, false],
    ]);
  });

  it("read the futures catalog with the MCP tools' parameters", async () => {
    const { product_classes } = await call("get_futures_product_class");
    expect(product_classes.map((c: { product_class_name: string }) => c.product_class_name)).toContain("Energy");
    const energy = product_classes.find((c: { product_class_name: string }) => c.product_class_name === "Energy");
    const { products } = await call("get_futures_products", { product_class_id: Number(energy.product_class_id) });
    expect(products.map((p: { code: string }) => p.code)).toEqual(["CL", "NG"]);
    const byCode = (await call("get_futures_instruments", { code: "cl" })).instruments;
    expect(byCode[0]).toMatchObject({ symbol: "CLmain", contract_type: "MAIN", exchange_code: "XNYM", multiplier: "1000" });
    const front = byCode[1].symbol;
    const bySymbols = (await call("get_futures_instruments", { symbols: ` ${front}, ESmain ,` })).instruments;
    expect(bySymbols.map((i: { symbol: string }) => i.symbol).sort()).toEqual([front, "ESmain"].sort());
    const [entry] = (await listAudit(db().engine, { action: "tools.get_futures_instruments" })).rows;
    expect(entry).toMatchObject({ actorEmail: caller.staff.email, outcome: "success", channel: "skills" });
    expect(entry.upstreamRequestId).toBeTruthy();
  });

  it("keep a watchlist: create, rename, add, reorder, remove, delete", async () => {
    const { watchlist_id } = await call("create_watchlist", { name: "Assistant picks" });
    expect(await call("update_watchlist", { watchlist_id, name: "Assistant's picks" })).toEqual({ success: true });
    const listed = (await call("get_watchlists")).watchlists;
    expect(listed.find((w: { watchlist_id: string }) => w.watchlist_id === watchlist_id).name).toBe("Assistant's picks");
    const aapl = { symbol: "aapl", category: "US_STOCK" };
    const tencent = { symbol: "00700", category: "HK_STOCK" };
    expect(await call("add_watchlist_instruments", { watchlist_id, instruments: [aapl, tencent] })).toEqual({ success: true });
    await call("update_watchlist_instruments", {
      watchlist_id,
      instruments: [
        { ...aapl, sort: 1 },
        { ...tencent, sort: 9 },
      ],
    });
    const members = await call("get_watchlist_instruments", { watchlist_id });
    expect(members.instruments.map((i: { symbol: string; name: string }) => [i.symbol, i.name])).toEqual([
      ["00700", "Tencent Holdings Ltd."],
      ["AAPL", "Apple Inc."],
    ]);
    await call("remove_watchlist_instruments", { watchlist_id, instruments: [tencent] });
    expect((await call("get_watchlist_instruments", { watchlist_id })).instruments.map((i: { symbol: string }) => i.symbol)).toEqual([
      "AAPL",
    ]);
    expect(await call("delete_watchlist", { watchlist_id })).toEqual({ success: true });
    const [entry] = (await listAudit(db().engine, { action: "tools.delete_watchlist" })).rows;
    expect(entry).toMatchObject({ outcome: "success", channel: "skills" });
  });

  it("answer the upstream's refusals, the token's scope and bad arguments as the registry does", async () => {
    const gone = await callTool(tool("get_watchlist_instruments"), { watchlist_id: "f".repeat(32) }, caller);
    expect(gone).toMatchObject({ ok: false, code: "WATCHLIST_NOT_FOUND" });
    const futures = await callTool(
      tool("add_watchlist_instruments"),
      { watchlist_id: "x", instruments: [{ symbol: "ESZ6", category: "US_FUTURES" }] },
      caller,
    );
    expect(futures).toMatchObject({ ok: false, code: "VALIDATION" });
    const readOnly = await staffAs("compliance", ["read"]);
    expect(await callTool(tool("create_watchlist"), { name: "Nope" }, readOnly)).toMatchObject({ ok: false, code: "INSUFFICIENT_SCOPE" });
    expect((await callTool(tool("get_watchlists"), {}, readOnly)).ok).toBe(true);
  });
});
