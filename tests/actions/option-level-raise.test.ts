import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { updateVirtualAccount } from "@/server/actions/accounts";
import { setBrokerForTests, type BrokerClient } from "@/server/broker";
import { ingest } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { evaluateNewEvents } from "@/server/jobs/surveillance";
import { withAppDb } from "../helpers/app-db";

/** accounts.update records an option-level raise (the level read just before the update), which the surveillance rule reads. */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.9", userAgent: "vitest" }) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const OPS = { id: "00000000-0000-4000-8000-000000000003", email: "ops@example.test", name: "Ops", role: "operations" };
const db = withAppDb();
const levels: Record<string, string | undefined> = { R1: "LV1", R2: "LV3", R3: undefined };
let readFails = false;
const fake = {
  getVirtualAccount: async ({ account_id }: { account_id: string }) => {
    if (readFails) throw new Error("upstream down");
    return { account_id, option_level: levels[account_id] };
  },
  updateVirtualAccount: async (body: { account_id: string; option_level?: string }) => {
    levels[body.account_id] = body.option_level;
    return { account_id: body.account_id, account_status: "ACTIVE" };
  },
} as unknown as BrokerClient;
afterAll(() => setBrokerForTests(undefined));
beforeEach(() => {
  session.staff = OPS;
  setBrokerForTests(fake);
  readFails = false;
});

const address = { country: "GB", state: "", city: "London", street_address: "1 Main St", postal_code: "N1" };
const update = (account_id: string, option_level: string) =>
  ({
    account_id,
    client_request_id: newClientId("va"),
    trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"],
    option_level,
    commission_code: "COMMISSION_GROUP_1",
    w8ben_info: {
      first_name: "Ada",
      middle_name: "",
      last_name: "Lovelace",
      treaty_country: "",
      tax_id: "",
      sign_date: "2026-01-02",
      home_address: address,
      mail_same_as_home: true,
      mail_address: address,
    },
    china_connect_investor_info: { first_name: "", middle_name: "", last_name: "", id_type: "", id_number: "", country_of_issuance: "" },
  }) as Parameters<typeof updateVirtualAccount>[0];
const changes = async () =>
  (
    await db().engine.query<{ account_id: string; from_level: string | null; to_level: string; changed_by: string }>(
      "SELECT account_id, from_level, to_level, changed_by FROM brokerdesk.option_level_changes ORDER BY id",
    )
  ).rows;

describe("option level raises", () => {
  it("a raise is recorded with the level before it; a lowering, no change or an unreadable level is not", async () => {
    expect(await updateVirtualAccount(update("R1", "LV3"))).toMatchObject({ ok: true });
    expect(await updateVirtualAccount(update("R2", "LV2"))).toMatchObject({ ok: true });
    expect(await updateVirtualAccount(update("R1", "LV3"))).toMatchObject({ ok: true });
    readFails = true;
    expect(await updateVirtualAccount(update("R3", "LV4"))).toMatchObject({ ok: true });
    expect(await changes()).toEqual([{ account_id: "R1", from_level: "LV1", to_level: "LV3", changed_by: "ops@example.test" }]);
  });

  it("an option order for the account soon after the raise raises an alert naming the raise", async () => {
    await ingest(db().engine, [
      fromStream(
        JSON.stringify({
          id: "ev-opt-r1",
          event_type: "TRADE",
          timestamp: new Date().toISOString(),
          payload: {
            biz_type: "TRADE",
            scene_type: "PLACE_SUCCESS",
            account_id: "R1",
            client_order_id: "opt-r1",
            order_id: "o-r1",
            symbol: "AAPL261218C00200000",
            category: "US_OPTION",
            side: "BUY",
            order_type: "LIMIT",
            qty: "1",
            order_status: "SUBMITTED",
          },
        }),
      ),
    ]);
    // The surveillance job's work over what was just projected (the job system is not running in this file).
    await evaluateNewEvents(db().engine);
    const { rows } = await db().engine.query<{ subject: string; details: unknown }>("SELECT subject, details FROM brokerdesk.alerts");
    expect(rows.map((r) => r.subject)).toEqual(["order:R1:opt-r1"]);
    const details = typeof rows[0].details === "string" ? JSON.parse(rows[0].details) : rows[0].details;
    expect(details).toMatchObject({ from_level: "LV1", to_level: "LV3", changed_by: "ops@example.test" });
  });
});
