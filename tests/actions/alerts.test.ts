import { beforeEach, describe, expect, it, vi } from "vitest";
import { decideSurveillanceAlert } from "@/server/actions/alerts";
import { saveSurveillanceRule } from "@/server/actions/surveillance";
import { listAudit } from "@/server/audit/list";
import { ingest } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { evaluateNewEvents } from "@/server/jobs/surveillance";
import { GET as listRoute } from "@/app/api/alerts/route";
import { GET as detailRoute } from "@/app/api/alerts/[id]/route";
import { withAppDb } from "../helpers/app-db";

/** The alert queue's routes and actions: who may read, decide and edit rules; a decision needs a note and is audited. */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.9", userAgent: "vitest" }) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const staff = (role: string) => ({
  id: `00000000-0000-4000-8000-0000000000${String(role.length).padStart(2, "0")}`,
  email: `${role}@example.test`,
  name: role,
  role,
});
const db = withAppDb();
beforeEach(() => {
  session.staff = staff("compliance");
});

const get = (handler: typeof listRoute, url: string, path: Record<string, string> = {}) =>
  handler(new Request(`http://desk.test${url}`), { params: Promise.resolve(path) });

async function raiseOne(crid: string): Promise<string> {
  await ingest(db().engine, [
    fromStream(
      JSON.stringify({
        id: `ev-${crid}`,
        event_type: "FUNDING",
        timestamp: "2026-11-01T10:00:00Z",
        payload: {
          biz_type: "INSTANT_FUNDING",
          client_request_id: crid,
          account_id: "A1",
          type: "DEPOSIT",
          amount: "80000",
          currency: "USD",
          status: "COMPLETED",
        },
      }),
    ),
  ]);
  // The surveillance job's work over what was just projected (the job system is not running in this file).
  await evaluateNewEvents(db().engine);
  const { rows } = await db().engine.query<{ id: string }>("SELECT id::text AS id FROM brokerdesk.alerts WHERE subject = $1", [
    `movement:INSTANT_FUNDING:${crid}`,
  ]);
  return rows[0].id;
}

describe("alerts routes and actions", () => {
  it("support is refused the queue, an alert, a decision and the rules (403 / FORBIDDEN, the refusal audited)", async () => {
    const id = await raiseOne("dep-support");
    session.staff = staff("support");
    expect((await get(listRoute, "/api/alerts")).status).toBe(403);
    expect((await get(detailRoute, `/api/alerts/${id}`, { id })).status).toBe(403);
    expect(await decideSurveillanceAlert({ alertId: id, decision: "cleared", note: "looks fine" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    expect(await saveSurveillanceRule({ kind: "journals_per_day", name: "Too many journals", enabled: true, count: "2" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    const denied = (await listAudit(db().engine, { action: "alerts.decide" })).rows;
    expect(denied[0]).toMatchObject({ outcome: "denied", actorRole: "support" });
    const { rows } = await db().engine.query<{ status: string }>("SELECT status FROM brokerdesk.alerts WHERE id = $1::bigint", [id]);
    expect(rows[0].status).toBe("open");
  });

  it("compliance reads the queue filtered by status and rule; admin reads it too but may not decide", async () => {
    const id = await raiseOne("dep-read");
    const res = await get(listRoute, "/api/alerts?status=open");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { rows: { id: string; status: string; ruleKind: string }[] };
    expect(body.rows.map((r) => r.id)).toContain(id);
    expect(body.rows.every((r) => r.status === "open")).toBe(true);
    const other = (await (await get(listRoute, "/api/alerts?status=cleared")).json()) as { rows: unknown[] };
    expect(other.rows.map((r) => (r as { id: string }).id)).not.toContain(id);
    session.staff = staff("admin");
    expect((await get(detailRoute, `/api/alerts/${id}`, { id })).status).toBe(200);
    expect(await decideSurveillanceAlert({ alertId: id, decision: "cleared", note: "fine" })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
  });

  it("a decision needs a note; with one it is recorded once and audited with the note", async () => {
    const id = await raiseOne("dep-decide");
    expect(await decideSurveillanceAlert({ alertId: id, decision: "cleared", note: " " })).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { note: expect.any(String) },
    });
    expect(
      await decideSurveillanceAlert({ alertId: id, decision: "escalated", note: "Source of funds unclear; sent to the MLRO." }),
    ).toEqual({ ok: true, data: { alertId: id, status: "escalated" } });
    const detail = (await (await get(detailRoute, `/api/alerts/${id}`, { id })).json()) as {
      status: string;
      note: string;
      decidedBy: string;
    };
    expect(detail).toMatchObject({
      status: "escalated",
      note: "Source of funds unclear; sent to the MLRO.",
      decidedBy: "compliance@example.test",
    });
    // Decided once: a second decision is refused.
    expect(await decideSurveillanceAlert({ alertId: id, decision: "cleared", note: "changed my mind" })).toMatchObject({
      ok: false,
      code: "ALREADY_DECIDED",
    });
    const entries = (await listAudit(db().engine, { action: "alerts.decide", actor: "compliance@" })).rows;
    expect(entries.map((e) => e.outcome)).toEqual(["failure", "success", "failure"]);
    expect(entries[1]).toMatchObject({
      target: `alert:${id}`,
      input: { alertId: id, decision: "escalated", note: "Source of funds unclear; sent to the MLRO." },
    });
  });

  it("an admin edits a rule's parameters and creates a rule; bad parameters are field errors", async () => {
    session.staff = staff("admin");
    const { rows } = await db().engine.query<{ id: string }>(
      "SELECT id::text AS id FROM brokerdesk.surveillance_rules WHERE kind = 'large_funding'",
    );
    const bigFunding = (amount: string) =>
      saveSurveillanceRule({ id: rows[0].id, kind: "large_funding", name: "Big funding", enabled: true, currency: "HKD", amount });
    expect(await bigFunding("abc")).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { amount: expect.any(String) } });
    expect(await bigFunding("400000")).toMatchObject({ ok: true });
    const saved = await db().engine.query<{ params: unknown; updated_by: string }>(
      "SELECT params, updated_by FROM brokerdesk.surveillance_rules WHERE id = $1::bigint",
      [rows[0].id],
    );
    const params = saved.rows[0].params;
    expect(typeof params === "string" ? JSON.parse(params) : params).toEqual({ currency: "HKD", amount: "400000" });
    expect(saved.rows[0].updated_by).toBe("admin@example.test");
    const created = await saveSurveillanceRule({ kind: "journals_per_day", name: "Three journals", enabled: false, count: "3" });
    expect(created).toMatchObject({ ok: true });
    expect((await listAudit(db().engine, { action: "alerts.rule_save", outcome: "success" })).rows).toHaveLength(2);
  });
});
