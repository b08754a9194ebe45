import { beforeEach, describe, expect, it, vi } from "vitest";
import { GET as entryRoute } from "@/app/api/audit/[seq]/route";
import { GET as exportRoute } from "@/app/api/audit/export/route";
import { appendAudit } from "@/server/audit/trail";
import { withAppDb } from "../helpers/app-db";
import { COMPLIANCE, SUPPORT } from "../helpers/session-guard";

/** The audit trail's routes as each role sees them (a fake session; an in-memory database). */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const db = withAppDb();
beforeEach(() => {
  session.staff = COMPLIANCE;
});

const call = (handler: typeof entryRoute, url: string, path: Record<string, string> = {}) =>
  handler(new Request(`http://desk.test${url}`, { headers: { "user-agent": "vitest" } }), { params: Promise.resolve(path) });

describe("audit routes", () => {
  it("the entry route: every column and the neighbours for compliance; 403 for support, 404 for no entry", async () => {
    const a = await appendAudit(db(), {
      actorEmail: "ops@example.test",
      action: "orders.cancel",
      target: "order:A1:c1",
      upstreamRequestId: "req-1",
      outcome: "success",
      input: { reason: "x", password: "p" },
    });
    await appendAudit(db(), {
      actorEmail: "ops@example.test",
      action: "orders.replace",
      target: "order:A1:c1",
      upstreamRequestId: "req-1",
      outcome: "failure",
    });
    const res = await call(entryRoute, `/api/audit/${a.seq}`, { seq: String(a.seq) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.entry).toMatchObject({
      seq: a.seq,
      upstreamRequestId: "req-1",
      hash: a.hash,
      prevHash: a.prevHash,
      input: { reason: "x", password: "[redacted]" },
    });
    expect(body.related.sameRequest).toHaveLength(1);
    expect(body.related.sameTarget).toHaveLength(1);
    expect((await call(entryRoute, "/api/audit/999999", { seq: "999999" })).status).toBe(404);
    expect((await call(entryRoute, "/api/audit/x", { seq: "x" })).status).toBe(400);

    session.staff = SUPPORT;
    const denied = await call(entryRoute, `/api/audit/${a.seq}`, { seq: String(a.seq) });
    expect(denied.status).toBe(403);
    expect(await denied.text()).not.toContain("orders.cancel");
    expect((await call(exportRoute, "/api/audit/export?action=orders.")).status).toBe(403);
  });

  it("the export holds exactly the filter's entries", async () => {
    await appendAudit(db(), { actorEmail: "ops@example.test", action: "movements.cash_journal", target: "account:B2", outcome: "success" });
    const res = await call(exportRoute, "/api/audit/export?action=orders.&target=A1");
    expect(res.status).toBe(200);
    const lines = (await res.text()).slice(1).trim().split("\r\n").slice(1);
    expect(lines.map((l) => l.split(",")[4])).toEqual(["orders.replace", "orders.cancel"]);
  });
});
