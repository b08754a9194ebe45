import { describe, expect, it, vi } from "vitest";
import { seedDemoUsers } from "@/server/auth/demo-users";
import { runDemoFirstDay } from "@/server/demo/first-day";
import { backfill } from "@/server/events/sync";
import { evaluateNewEvents } from "@/server/jobs/surveillance";
import { testEngines } from "../helpers/engines";
import { useProcessFixture } from "./helpers";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// No session here: the first morning names its caller (the demo operator) itself.
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({}) }));

/**
 * A first start on the embedded defaults (issue 25 item 7), through the desk's own paths against a seeded sandbox:
 * the backfill fills the blotter with the customers' orders in every state; the demo's first morning, sent through
 * the movement actions, fills the movements list and the approvals inbox; the surveillance rules raise alerts over
 * them. The first morning happens once a database.
 */
describe.each(testEngines())("a first start on $name", (te) => {
  const f = useProcessFixture(te);
  const count = async (sql: string) => Number((await f().db.engine.query<{ n: string }>(sql)).rows[0].n);

  it("shows orders, movements, approvals and alerts before anyone acts", async () => {
    const { db, client } = f();
    await seedDemoUsers(db);
    expect(await count("SELECT count(*) AS n FROM brokerdesk.orders")).toBe(0);

    await backfill({ engine: db.engine, client }, { days: 30 });
    const { rows } = await db.engine.query<{ status: string }>("SELECT DISTINCT status FROM brokerdesk.orders");
    expect(rows.map((r) => r.status).sort()).toEqual(["CANCELLED", "FAILED", "FILLED", "PARTIAL_FILLED", "SUBMITTED"]);
    expect(await count("SELECT count(DISTINCT account_id) AS n FROM brokerdesk.orders")).toBeGreaterThanOrEqual(8);

    await runDemoFirstDay(db);
    const movements = await db.engine.query<{ kind: string; status: string }>("SELECT kind, status FROM brokerdesk.money_movements");
    expect(new Set(movements.rows.map((m) => m.kind))).toEqual(
      new Set(["INSTANT_FUNDING", "CASH_JOURNAL", "POSITION_JOURNAL", "FX_EXCHANGE"]),
    );
    expect(
      movements.rows.filter((m) => m.status === "COMPLETED"),
      JSON.stringify(movements.rows),
    ).toHaveLength(10);
    expect(await count("SELECT count(*) AS n FROM brokerdesk.approval_requests WHERE status = 'pending'")).toBe(2);

    await evaluateNewEvents(db.engine);
    const alerts = await db.engine.query<{ kind: string }>(
      "SELECT DISTINCT r.kind FROM brokerdesk.alerts a JOIN brokerdesk.surveillance_rules r ON r.id = a.rule_id ORDER BY r.kind",
    );
    expect(alerts.rows.map((r) => r.kind)).toEqual(["journals_per_day", "large_funding", "withdrawal_after_deposit"]);
    // What staff read first names accounts by number: the held requests' summaries and the alerts' texts.
    const texts = await db.engine.query<{ text: string }>(
      "SELECT summary AS text FROM brokerdesk.approval_requests UNION ALL SELECT summary FROM brokerdesk.alerts",
    );
    expect(texts.rows.length).toBeGreaterThanOrEqual(5);
    for (const { text } of texts.rows) expect(text).not.toMatch(/[0-9a-f]{32}/);
    expect(texts.rows.map((r) => r.text).join("\n")).toMatch(/journals into account VBD\d+/);

    // Once a database: a second start sends nothing.
    const before = await count("SELECT count(*) AS n FROM brokerdesk.audit_entries");
    await runDemoFirstDay(db);
    expect(await count("SELECT count(*) AS n FROM brokerdesk.audit_entries")).toBe(before);
  }, 120_000);
});
