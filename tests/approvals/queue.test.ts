import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as alertsBadgeRoute } from "@/app/api/badges/alerts/route";
import { GET as approvalsBadgeRoute } from "@/app/api/badges/approvals/route";
import { GET as decidedRoute } from "@/app/api/approvals/decided/route";
import { GET as pendingRoute } from "@/app/api/approvals/pending/route";
import { isPendingApproval } from "@/lib/errors";
import { newClientId } from "@/lib/ids";
import {
  approveApprovalAction,
  decideManyApprovalsAction,
  markDecisionsSeenAction,
  saveApprovalRuleAction,
} from "@/server/actions/approvals";
import { createCashJournalAction } from "@/server/actions/movements";
import { getApproval, sweepExpired } from "@/server/approvals/requests";
import { listAudit } from "@/server/audit/list";
import { masterAccountId } from "@/server/sandbox/seed";
import { useProcessFixture, type EventsFixture } from "../events/helpers";
import { testEngines } from "../helpers/engines";
import { as, session } from "../helpers/desk-session";
import { approvalRule, fourEyesStaff } from "../helpers/four-eyes";
import { ACCOUNTS } from "../sandbox/trading-helpers";

/**
 * The approvals queue around the desk, against a started sandbox: bulk decisions taken request by request exactly as
 * one decision is (each executed once, the approver's own refused in words), the menu's count of what waits for one
 * person, the "Pending approval" marks of an account and a movement, and the maker's notice of decided requests.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const { MAKER, CHECKER, CHECKER2, ADMIN, COMPLIANCE } = fourEyesStaff(11);

const master = masterAccountId();
const to = ACCOUNTS.margin;
const CREATE = "POST /broker/journals/cash-journals/create";

/** A bulk decision's answer: each request's result in the order asked, as [id, outcome, message]. */
const decided = (...results: [id: string, outcome: string, message: string][]) => ({
  ok: true,
  data: { results: results.map(([id, outcome, message]) => ({ id, outcome, message })) },
});
const SENT = "Approved and sent";

const get = async (handler: (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>, url: string) => {
  const res = await handler(new Request(`http://desk.test${url}`), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
};

for (const engine of testEngines()) {
  describe(`the approvals queue on ${engine.name}`, () => {
    const fixture = useProcessFixture(engine);
    let f: EventsFixture;

    beforeAll(async () => {
      f = fixture();
      session.staff = ADMIN;
      // Every USD cash journal waits for one operator; HKD ones for two (operations or admin).
      const usd = approvalRule({ action: "movements.cash_journal", currency: "USD" });
      const hkd: typeof usd = { ...usd, currency: "HKD", approversRequired: 2, approverRoles: ["operations", "admin"] };
      for (const rule of [usd, hkd]) expect(await saveApprovalRuleAction(rule)).toMatchObject({ ok: true });
    });
    beforeEach(async () => {
      // Each test starts from an inbox where nothing waits.
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET status = 'withdrawn', decided_at = now() WHERE status = 'pending'");
      session.staff = MAKER;
    });

    const calls = async () => ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[CREATE] ?? 0;
    async function hold(maker: typeof MAKER, amount: string, currency: "USD" | "HKD" = "USD"): Promise<{ id: string; crid: string }> {
      const request = { client_request_id: newClientId("cj"), from_account: master, to_account: to, currency, amount };
      const r = await as(maker, () => createCashJournalAction(request));
      if (!r.ok || !isPendingApproval(r.data)) throw new Error(`not held: ${JSON.stringify(r)}`);
      return { id: r.data.approvalId, crid: request.client_request_id };
    }

    it("approves several in one go: each sent once, the approver's own refused in words, a decided one said so", async () => {
      const a = await hold(MAKER, "101.00");
      const b = await hold(MAKER, "102.00");
      const own = await hold(CHECKER, "103.00");
      await f.api.call("POST", "/sandbox/calls/reset");

      const r = await as(CHECKER, () => decideManyApprovalsAction({ decision: "approve", ids: [a.id, b.id, own.id] }));
      expect(r).toEqual(
        decided([a.id, "approved", SENT], [b.id, "approved", SENT], [own.id, "refused", "Not yours to approve: you made this request"]),
      );
      expect(await calls()).toBe(2);
      expect((await getApproval(f.db, a.id)).status).toBe("executed");
      expect((await getApproval(f.db, own.id)).status).toBe("pending");

      // Again, by another operator: nothing is sent twice.
      const again = await as(CHECKER2, () => decideManyApprovalsAction({ decision: "approve", ids: [a.id, own.id] }));
      expect(again).toMatchObject(
        decided([a.id, "refused", "Already decided: this request has already been approved and executed."], [own.id, "approved", SENT]),
      );
      expect(await calls()).toBe(3);

      // Each request has the entry of a one-by-one decision, and the bulk call its own.
      const entries = (await listAudit(f.db.engine, { action: "approvals.approve", actor: CHECKER.email })).rows;
      const byTarget = Object.fromEntries(entries.map((e) => [e.target, [e.outcome, e.errorCode ?? null]]));
      expect(byTarget).toMatchObject({
        [`approval:${a.id}`]: ["success", null],
        [`approval:${b.id}`]: ["success", null],
        [`approval:${own.id}`]: ["failure", "OWN_REQUEST"],
      });
      const [bulk] = (await listAudit(f.db.engine, { action: "approvals.decide_many", actor: CHECKER.email })).rows;
      expect(bulk).toMatchObject({ outcome: "success", input: { decision: "approve", ids: [a.id, b.id, own.id] } });
    });

    it("rejects several with one reason; an expired one and a second approval of a two-approver rule are told apart", async () => {
      const a = await hold(MAKER, "201.00");
      const b = await hold(MAKER, "202.00");
      const late = await hold(MAKER, "203.00");
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET expires_at = now() - interval '1 minute' WHERE id = $1", [late.id]);
      expect(await as(CHECKER, () => decideManyApprovalsAction({ decision: "reject", ids: [a.id], reason: "" }))).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { reason: "Give a reason" },
      });
      const r = await as(CHECKER, () =>
        decideManyApprovalsAction({ decision: "reject", ids: [a.id, b.id, late.id], reason: "Wrong destination account" }),
      );
      expect(r).toMatchObject(
        decided([a.id, "rejected", "Rejected"], [b.id, "rejected", "Rejected"], [late.id, "refused", "Expired: nobody decided it in time"]),
      );
      for (const id of [a.id, b.id]) {
        expect(await getApproval(f.db, id)).toMatchObject({ status: "rejected", decisions: [{ reason: "Wrong destination account" }] });
      }

      const two = await hold(MAKER, "204.00", "HKD");
      expect(await as(CHECKER, () => decideManyApprovalsAction({ decision: "approve", ids: [two.id] }))).toMatchObject({
        data: { results: [{ outcome: "approved", message: "Approved: waits for one more approval" }] },
      });
      expect(await as(CHECKER, () => decideManyApprovalsAction({ decision: "approve", ids: [two.id] }))).toMatchObject({
        data: { results: [{ outcome: "refused", message: "Already decided: you decided this request before" }] },
      });
    });

    it("refuses a list that is empty, too long or repeats a request, and a role that does not decide", async () => {
      const { id } = await hold(MAKER, "301.00");
      const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
      for (const bad of [[], ids, [id, id]]) {
        expect(await as(CHECKER, () => decideManyApprovalsAction({ decision: "approve", ids: bad }))).toMatchObject({
          ok: false,
          code: "VALIDATION",
        });
      }
      expect(await as(COMPLIANCE, () => decideManyApprovalsAction({ decision: "approve", ids: [id] }))).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
      expect((await getApproval(f.db, id)).status).toBe("pending");
    });

    it("the menu's count is what waits for this person: not their own, their role, not decided by them, not expired", async () => {
      const count = async (staff: typeof MAKER) => (await as(staff, () => get(approvalsBadgeRoute, "/api/badges/approvals"))).body.count;
      const usd = await hold(MAKER, "401.00");
      const hkd = await hold(MAKER, "402.00", "HKD");
      await hold(CHECKER, "403.00");
      expect(await count(MAKER)).toBe(1); // the checker's
      expect(await count(CHECKER)).toBe(2); // the maker's two
      expect(await count(ADMIN)).toBe(1); // the HKD rule names admin; the USD one does not
      expect(await count(COMPLIANCE)).toBe(0); // reads the inbox, decides nothing
      expect(await as(CHECKER, () => approveApprovalAction({ id: hkd.id }))).toMatchObject({ ok: true, data: { status: "pending" } });
      expect(await count(CHECKER)).toBe(1); // waits for someone else now
      expect(await count(CHECKER2)).toBe(3);
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET expires_at = now() - interval '1 second' WHERE id = $1", [usd.id]);
      expect(await count(CHECKER2)).toBe(2);

      session.staff = COMPLIANCE;
      expect((await get(alertsBadgeRoute, "/api/badges/alerts")).status).toBe(200);
      session.staff = CHECKER;
      expect((await get(alertsBadgeRoute, "/api/badges/alerts")).status).toBe(403);
    });

    it("marks an account's and a movement's held requests, until they are decided", async () => {
      const held = await hold(MAKER, "501.00");
      const marks = async (query: string) => (await as(COMPLIANCE, () => get(pendingRoute, `/api/approvals/pending?${query}`))).body.rows;
      // Both accounts of the journal: the receiving one is not the request's audit target.
      expect(await marks(`account=${to}`)).toEqual([expect.objectContaining({ id: held.id, makerEmail: MAKER.email })]);
      expect(await marks(`account=${master}`)).toEqual([expect.objectContaining({ id: held.id })]);
      expect(await marks(`clientRequestId=${held.crid}`)).toEqual([expect.objectContaining({ id: held.id })]);
      expect(await marks(`account=${ACCOUNTS.cash}`)).toEqual([]);
      expect(await as(CHECKER, () => approveApprovalAction({ id: held.id }))).toMatchObject({ ok: true });
      expect(await marks(`account=${to}`)).toEqual([]);
      expect(await marks(`clientRequestId=${held.crid}`)).toEqual([]);
      expect((await get(pendingRoute, "/api/approvals/pending")).status).toBe(400);
      expect((await get(pendingRoute, "/api/approvals/pending?account=a%00b")).status).toBe(400);
    });

    it("tells the maker of each decision until they have seen it, and nobody else", async () => {
      const notices = async (staff: typeof MAKER) => (await as(staff, () => get(decidedRoute, "/api/approvals/decided"))).body;
      const seen = await notices(MAKER);
      if (seen.rows.length) await as(MAKER, () => markDecisionsSeenAction({ ids: seen.rows.map((r: { id: string }) => r.id) }));
      expect(await notices(MAKER)).toEqual({ count: 0, rows: [] });

      const sent = await hold(MAKER, "601.00");
      const refused = await hold(MAKER, "602.00");
      const lapsed = await hold(MAKER, "603.00");
      const waiting = await hold(MAKER, "604.00");
      await as(CHECKER, () => approveApprovalAction({ id: sent.id }));
      await as(CHECKER2, () => decideManyApprovalsAction({ decision: "reject", ids: [refused.id], reason: "Not today" }));
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET expires_at = now() - interval '1 second' WHERE id = $1", [
        lapsed.id,
      ]);
      await sweepExpired(f.db);

      const told = await notices(MAKER);
      expect(told.count).toBe(3);
      expect(Object.fromEntries(told.rows.map((r: { id: string }) => [r.id, r]))).toMatchObject({
        [sent.id]: { status: "executed", decidedBy: CHECKER.email },
        [refused.id]: { status: "rejected", decidedBy: CHECKER2.email, reason: "Not today" },
        [lapsed.id]: { status: "expired", decidedBy: null },
      });
      expect(told.rows.map((r: { id: string }) => r.id)).not.toContain(waiting.id);
      expect((await notices(CHECKER)).rows.map((r: { id: string }) => r.id)).not.toContain(sent.id);

      // Someone else cannot mark them seen; the maker can, one by one.
      expect(await as(CHECKER, () => markDecisionsSeenAction({ ids: [sent.id] }))).toEqual({ ok: true, data: { marked: 0 } });
      expect(await as(MAKER, () => markDecisionsSeenAction({ ids: [sent.id, waiting.id] }))).toEqual({ ok: true, data: { marked: 1 } });
      expect((await notices(MAKER)).count).toBe(2);
      expect(await as(MAKER, () => markDecisionsSeenAction({ ids: [refused.id, lapsed.id] }))).toEqual({ ok: true, data: { marked: 2 } });
      expect(await notices(MAKER)).toEqual({ count: 0, rows: [] });
    });
  });
}
