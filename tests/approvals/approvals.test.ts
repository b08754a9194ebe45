import Decimal from "decimal.js";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { isPendingApproval } from "@/lib/errors";
import {
  approveApprovalAction,
  rejectApprovalAction,
  saveApprovalRuleAction,
  setApprovalRuleEnabledAction,
  withdrawApprovalAction,
} from "@/server/actions/approvals";
import { updateVirtualAccount } from "@/server/actions/accounts";
import { createCashJournalAction } from "@/server/actions/movements";
import { formValuesFromAccount, type AccountView } from "@/lib/schemas/virtual-account-view";
import { getApproval, listApprovals, maskApprovalPii, sweepExpired } from "@/server/approvals/requests";
import { NOT_SENT_MESSAGE, recoverStuckExecutions } from "@/server/approvals/recover";
import { executeRequest } from "@/server/approvals/execute";
import { actionContext } from "@/server/action-kit/perform";
import { listRules, matchRule } from "@/server/approvals/queries/rules";
import { listAudit } from "@/server/audit/list";
import { accountNumbers } from "@/server/accounts/directory";
import { masterAccountId } from "@/server/sandbox/seed";
import { setBrokerForTests } from "@/server/broker";
import { BrokerError } from "@/server/broker/errors";
import { testEngines } from "../helpers/engines";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { as, session } from "../helpers/desk-session";
import { approvalRule as rule, fourEyesStaff, useFixtureWithoutRules } from "../helpers/four-eyes";
import { newStaff, sessionPerson as person } from "../helpers/staff";

/**
 * Four-eyes approvals through the server actions against a started sandbox: a rule holds the cash journal above
 * its threshold, the server refuses the maker, a second decision, a role the rule does not name and an expired
 * request; the last approval executes the stored request once, however many approvals race for it.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.8"));
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const { MAKER, CHECKER, CHECKER2, ADMIN, COMPLIANCE, SUPPORT } = fourEyesStaff(1);

const master = masterAccountId();
const to = ACCOUNTS.margin;
const CREATE = "POST /broker/journals/cash-journals/create";

for (const engine of testEngines()) {
  describe(`four-eyes approvals on ${engine.name}`, () => {
    // This file's rules only, not the defaults a fresh database starts with.
    const f = useFixtureWithoutRules(engine);

    beforeAll(async () => {
      session.staff = ADMIN;
      // The rule, and a stricter one for HKD (two approvers, any amount), both made through the editor's action.
      expect(await saveApprovalRuleAction(rule({ action: "movements.cash_journal", currency: "USD", threshold: "10000" }))).toMatchObject({
        ok: true,
      });
      expect(
        await saveApprovalRuleAction(
          rule({ action: "movements.cash_journal", currency: "HKD", approversRequired: 2, approverRoles: ["operations", "admin"] }),
        ),
      ).toMatchObject({ ok: true });
    });
    beforeEach(() => {
      session.staff = MAKER;
    });

    const calls = async () => ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[CREATE] ?? 0;
    const cash = async (account: string, currency: string) =>
      new Decimal(
        (await f.client.getBalance({ account_id: account })).account_currency_assets.find((a) => a.currency === currency)?.cash_balance ??
          "0",
      );
    const movement = async (crid: string) =>
      (
        await f.db.engine.query<{ status: string; requested_by: string; reason: string | null; amount: string }>(
          "SELECT status, requested_by, reason, amount::text FROM brokerdesk.money_movements WHERE kind = 'CASH_JOURNAL' AND client_request_id = $1",
          [crid],
        )
      ).rows[0];
    const journal = (amount: string, currency: "USD" | "HKD" = "USD") => ({
      client_request_id: newClientId("cj"),
      from_account: master,
      to_account: to,
      currency,
      amount,
    });
    async function hold(amount: string, currency: "USD" | "HKD" = "USD"): Promise<{ id: string; crid: string }> {
      const request = journal(amount, currency);
      const r = await as(MAKER, () => createCashJournalAction(request));
      if (!r.ok || !isPendingApproval(r.data)) throw new Error(`not held: ${JSON.stringify(r)}`);
      return { id: r.data.approvalId, crid: request.client_request_id };
    }

    it("matches the strictest enabled rule of the action, currency and amount", async () => {
      const db = f.db.engine;
      expect(await matchRule(db, "movements.cash_journal", { currency: "USD", amount: "10000.00" })).toBeUndefined();
      expect(await matchRule(db, "movements.cash_journal", { currency: "USD", amount: "10000.01" })).toMatchObject({
        approversRequired: 1,
        approverRoles: ["operations"],
      });
      expect(await matchRule(db, "movements.cash_journal", { currency: "HKD", amount: "1.00" })).toMatchObject({ approversRequired: 2 });
      expect(await matchRule(db, "movements.position_journal", undefined)).toBeUndefined();
      session.staff = ADMIN;
      const strict = await saveApprovalRuleAction(
        rule({ action: "movements.cash_journal", threshold: "1000000", approversRequired: 3, approverRoles: ["admin"] }),
      );
      if (!strict.ok) throw new Error(strict.serverError);
      expect(await matchRule(db, "movements.cash_journal", { currency: "USD", amount: "2000000" })).toMatchObject({
        id: strict.data.id,
        approversRequired: 3,
      });
      expect(await setApprovalRuleEnabledAction({ id: strict.data.id, enabled: false })).toMatchObject({
        ok: true,
        data: { enabled: false },
      });
      expect(await matchRule(db, "movements.cash_journal", { currency: "USD", amount: "2000000" })).toMatchObject({ approversRequired: 1 });
      session.staff = MAKER;
      expect(await saveApprovalRuleAction(rule({ action: "movements.cash_journal" }))).toMatchObject({ ok: false, code: "FORBIDDEN" });
      session.staff = ADMIN;
      expect(
        await saveApprovalRuleAction({
          action: "movements.cash_journal",
          currency: "",
          threshold: "",
          approversRequired: 4,
          approverRoles: ["support"],
        } as never),
      ).toMatchObject({ ok: false, code: "VALIDATION", fieldErrors: { approversRequired: expect.any(String) } });
      // A role that may not decide (support) cannot be named an approver: refused on the field, nothing saved.
      const before = (await listRules(db)).length;
      expect(await saveApprovalRuleAction(rule({ action: "movements.cash_journal", approverRoles: ["support"] }))).toMatchObject({
        ok: false,
        code: "NOT_AN_APPROVER_ROLE",
        fieldErrors: { approverRoles: "Choose roles that may approve requests" },
      });
      expect(await listRules(db)).toHaveLength(before);
    });

    it("USD 5,000 executes at once; USD 50,000 is held, refused to its maker, and executed by a second operator", async () => {
      await f.api.call("POST", "/sandbox/calls/reset");
      const small = journal("5000.00");
      const sent = await as(MAKER, () => createCashJournalAction(small));
      expect(sent).toMatchObject({ ok: true, data: { client_request_id: small.client_request_id } });
      expect(await calls()).toBe(1);

      const [from0, to0] = [await cash(master, "USD"), await cash(to, "USD")];
      // The desk has not read the receiving account before (an assistant or the command line gave its id): holding
      // asks the upstream for its number, so the summary, written once, names it so.
      const toNumber = ((await f.client.getVirtualAccount({ account_id: to })) as AccountView).account_number;
      expect((await accountNumbers(f.db.engine, [to])).has(to)).toBe(false);
      const big = journal("50000.00");
      const held = await as(MAKER, () => createCashJournalAction(big));
      expect(held).toMatchObject({ ok: true, data: { pending: true, message: expect.stringContaining("one approver") } });
      const id = (held as { data: { approvalId: string } }).data.approvalId;
      expect(await calls()).toBe(1); // nothing sent
      expect(await movement(big.client_request_id)).toMatchObject({ status: "AWAITING_APPROVAL", requested_by: MAKER.email });
      // The same submission again waits once.
      expect(await as(MAKER, () => createCashJournalAction(big))).toMatchObject({
        ok: true,
        data: { pending: true, approvalId: id, message: expect.stringContaining("already waiting") },
      });

      const detail = await getApproval(f.db, id);
      expect(detail).toMatchObject({
        status: "pending",
        payload: big,
        clientRequestId: big.client_request_id,
        amount: "50000.00",
        currency: "USD",
        approvals: 0,
        approversRequired: 1,
        makerEmail: MAKER.email,
        // The page shows the payload's accounts by the numbers the desk knows.
        accountNumbers: { [to]: toNumber },
      });
      expect(detail.summary).toContain("50,000.00");
      expect(detail.summary).toContain(`to ${toNumber}`);
      expect(detail.summary).not.toContain(to);

      expect(await as(MAKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "OWN_REQUEST" });
      expect(await as(MAKER, () => rejectApprovalAction({ id, reason: "changed my mind" }))).toMatchObject({
        ok: false,
        code: "OWN_REQUEST",
      });
      expect(await as(COMPLIANCE, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await as(SUPPORT, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await as(ADMIN, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "NOT_AN_APPROVER" }); // the rule names operations only
      expect(await calls()).toBe(1);

      const approved = await as(CHECKER, () => approveApprovalAction({ id }));
      expect(approved).toMatchObject({
        ok: true,
        data: { status: "executed", approvals: 1, required: 1, upstreamRequestId: expect.any(String) },
      });
      expect(await calls()).toBe(2);
      expect((await cash(master, "USD")).minus(from0).toFixed(2)).toBe("-50000.00");
      expect((await cash(to, "USD")).minus(to0).toFixed(2)).toBe("50000.00");
      const moved = await movement(big.client_request_id);
      expect(moved.status).not.toBe("AWAITING_APPROVAL");
      expect(moved.requested_by).toBe(MAKER.email);

      // A second click, a replay, another approver: refused, nothing sent again.
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_CLOSED" });
      expect(await as(CHECKER2, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_CLOSED" });
      expect(await calls()).toBe(2);

      const after = await getApproval(f.db, id);
      expect(after).toMatchObject({
        status: "executed",
        upstreamRequestId: expect.any(String),
        decisions: [{ approverEmail: CHECKER.email, decision: "approve" }],
      });
      const [execution] = (await listAudit(f.db.engine, { action: "movements.cash_journal", outcome: "success" })).rows;
      expect(execution).toMatchObject({
        actorEmail: CHECKER.email,
        target: `account:${master}`,
        idempotencyKey: big.client_request_id,
        input: { approvalId: id, maker: MAKER.email, checker: CHECKER.email, upstreamRequestId: expect.any(String) },
      });
      const heldEntries = (await listAudit(f.db.engine, { action: "movements.cash_journal", outcome: "held" })).rows;
      expect(heldEntries.map((e) => e.target)).toContain(`approval:${id}`);
      const refused = (await listAudit(f.db.engine, { action: "approvals.approve", outcome: "failure" })).rows;
      expect(refused.map((e) => e.errorCode)).toEqual(expect.arrayContaining(["OWN_REQUEST", "NOT_AN_APPROVER", "APPROVAL_CLOSED"]));
      expect(refused.find((e) => e.errorCode === "OWN_REQUEST")).toMatchObject({ actorEmail: MAKER.email, target: `approval:${id}` });
    });

    it("a two-approver rule needs two different approvers; nobody decides twice", async () => {
      await f.api.call("POST", "/sandbox/calls/reset");
      const { id } = await hold("1000.00", "HKD");
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({
        ok: true,
        data: { status: "pending", approvals: 1, required: 2 },
      });
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "ALREADY_DECIDED" });
      expect(await as(CHECKER, () => rejectApprovalAction({ id, reason: "on second thought" }))).toMatchObject({
        ok: false,
        code: "ALREADY_DECIDED",
      });
      expect(await calls()).toBe(0);
      expect(await as(ADMIN, () => approveApprovalAction({ id }))).toMatchObject({
        ok: true,
        data: { status: "executed", approvals: 2, required: 2 },
      });
      expect(await calls()).toBe(1);
      expect((await getApproval(f.db, id)).decisions.map((d) => d.approverEmail)).toEqual([CHECKER.email, ADMIN.email]);
    });

    it("an expired request cannot be approved: it is closed, audited and shown EXPIRED", async () => {
      const { id, crid } = await hold("20000.00");
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_EXPIRED" });
      expect((await getApproval(f.db, id)).status).toBe("expired");
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_EXPIRED" });
      expect((await movement(crid)).status).toBe("EXPIRED");
      const [entry] = (await listAudit(f.db.engine, { action: "approvals.expire" })).rows;
      expect(entry).toMatchObject({ target: `approval:${id}`, outcome: "success", input: { approvalId: id, maker: MAKER.email } });

      // The sweep expires what is due without anyone opening it.
      const other = await hold("20001.00");
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET expires_at = now() - interval '1 second' WHERE id = $1", [other.id]);
      expect(await sweepExpired(f.db)).toBe(1);
      expect((await listApprovals(f.db, { status: "expired" }, { limit: 50 })).rows.map((r) => r.id)).toEqual(
        expect.arrayContaining([id, other.id]),
      );
    });

    it("reject needs a reason and shows the movement DECLINED; only the maker withdraws", async () => {
      const { id, crid } = await hold("30000.00");
      expect(await as(CHECKER, () => rejectApprovalAction({ id, reason: "" }))).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { reason: "Give a reason" },
      });
      expect(await as(CHECKER, () => rejectApprovalAction({ id, reason: "Wrong destination account" }))).toMatchObject({
        ok: true,
        data: { status: "rejected" },
      });
      expect(await movement(crid)).toMatchObject({ status: "DECLINED", reason: "Wrong destination account", requested_by: MAKER.email });
      expect(await as(CHECKER2, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_CLOSED" });
      expect((await getApproval(f.db, id)).decisions).toMatchObject([{ decision: "reject", reason: "Wrong destination account" }]);

      const w = await hold("30001.00");
      expect(await as(CHECKER, () => withdrawApprovalAction({ id: w.id }))).toMatchObject({ ok: false, code: "NOT_THE_MAKER" });
      expect(await as(MAKER, () => withdrawApprovalAction({ id: w.id }))).toMatchObject({ ok: true, data: { status: "withdrawn" } });
      expect((await movement(w.crid)).status).toBe("WITHDRAWN");
      expect(await as(CHECKER, () => approveApprovalAction({ id: w.id }))).toMatchObject({ ok: false, code: "APPROVAL_CLOSED" });
    });

    it("an execution that fails is recorded with its reason, shown FAILED, and never sent again", async () => {
      await f.api.call("POST", "/sandbox/calls/reset");
      const { id, crid } = await hold("60000000.00"); // more than the master account holds: refused before sending
      const approved = await as(CHECKER, () => approveApprovalAction({ id }));
      expect(approved).toMatchObject({
        ok: true,
        data: { status: "failed", error: expect.stringContaining("More than the available cash") },
      });
      expect(await calls()).toBe(0);
      expect(await getApproval(f.db, id)).toMatchObject({ status: "failed", error: expect.stringContaining("available cash") });
      expect(await movement(crid)).toMatchObject({ status: "FAILED", reason: expect.stringContaining("available cash") });
      expect(await as(CHECKER2, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "APPROVAL_CLOSED" });
      const [entry] = (await listAudit(f.db.engine, { action: "movements.cash_journal", outcome: "failure" })).rows;
      expect(entry).toMatchObject({
        errorCode: "INSUFFICIENT_CASH",
        actorEmail: CHECKER.email,
        input: { approvalId: id, maker: MAKER.email },
      });
    });

    it("a request whose maker was disabled meanwhile cannot be approved, only rejected; nothing is sent", async () => {
      const leaver = await newStaff(f.db, "operations", "approvals.test");
      const request = journal("50005.00");
      const held = await as(leaver, () => createCashJournalAction(request));
      if (!held.ok || !isPendingApproval(held.data)) throw new Error(`not held: ${JSON.stringify(held)}`);
      await f.db.engine.query("UPDATE brokerdesk.staff_users SET disabled = true WHERE id = $1", [leaver.id]);
      await f.api.call("POST", "/sandbox/calls/reset");
      const id = held.data.approvalId;
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: false, code: "MAKER_DISABLED" });
      expect(await getApproval(f.db, id)).toMatchObject({ status: "pending", decisions: [] });
      expect(await calls()).toBe(0);
      expect(await as(CHECKER, () => rejectApprovalAction({ id, reason: "Maker left" }))).toMatchObject({
        ok: true,
        data: { status: "rejected" },
      });
    });

    it("a repeat of a request approved and sent is that request, not a second approval; another body under its id is refused", async () => {
      const request = journal("50003.00");
      const held = await as(MAKER, () => createCashJournalAction(request));
      if (!held.ok || !isPendingApproval(held.data)) throw new Error(`not held: ${JSON.stringify(held)}`);
      const id = held.data.approvalId;
      expect(await as(CHECKER, () => approveApprovalAction({ id }))).toMatchObject({ ok: true, data: { status: "executed" } });
      const count = async () =>
        Number(
          (
            await f.db.engine.query<{ n: string }>(
              "SELECT count(*)::text AS n FROM brokerdesk.approval_requests WHERE client_request_id = $1",
              [request.client_request_id],
            )
          ).rows[0].n,
        );
      // The maker's "Send again" after a lost answer, or a tool's retry with the same client_request_id.
      const again = await as(MAKER, () => createCashJournalAction(request));
      expect(again).toMatchObject({ ok: true, data: { approvalId: id, message: expect.stringContaining("approved already") } });
      expect(await count()).toBe(1);
      expect((await movement(request.client_request_id))?.status).toBe("COMPLETED");
      const other = await as(MAKER, () => createCashJournalAction({ ...request, amount: "50004.00" }));
      expect(other).toMatchObject({ ok: false, code: "DUPLICATE_CLIENT_REQUEST_ID" });
      expect(await count()).toBe(1);
    });

    it("an execution whose answer is lost is settled from the upstream's record, not failed to be asked again under a new id", async () => {
      const { id, crid } = await hold("60001.00");
      const before = await cash(to, "USD");
      // The upstream books the journal and the answer never arrives (the client's time runs out): the outcome is unknown.
      let lostAnswers = 0;
      const lossy = new Proxy(f.client, {
        get(target, key, receiver) {
          if (key !== "createCashJournal") return Reflect.get(target, key, receiver);
          return async (request: Parameters<typeof target.createCashJournal>[0]) => {
            await target.createCashJournal(request);
            lostAnswers += 1;
            throw new BrokerError({
              status: 0,
              errorCode: "TIMEOUT",
              message: "createCashJournal timed out",
              operation: "createCashJournal",
            });
          };
        },
      });
      setBrokerForTests(lossy);
      try {
        const approved = await as(CHECKER, () => approveApprovalAction({ id }));
        expect(approved).toMatchObject({ ok: true, data: { status: "executed", error: null } });
      } finally {
        setBrokerForTests(f.client);
      }
      expect(lostAnswers).toBe(1);
      expect(await getApproval(f.db, id)).toMatchObject({ status: "executed", error: null });
      expect((await cash(to, "USD")).minus(before).toFixed(2)).toBe("60001.00");
      // The read model is not told FAILED: the upstream's events bring its own status.
      expect((await movement(crid))?.status).not.toBe("FAILED");
      const [settled] = (await listAudit(f.db.engine, { action: "approvals.recover" })).rows.filter((e) => e.target === `approval:${id}`);
      expect(settled).toMatchObject({ outcome: "success" });
    });

    it("an execution whose answer is lost before the upstream has the request stays executing until the upstream can say", async () => {
      const { id, crid } = await hold("60002.00");
      const gone = new Proxy(f.client, {
        get(target, key, receiver) {
          if (key !== "createCashJournal") return Reflect.get(target, key, receiver);
          return async () => {
            throw new BrokerError({
              status: 0,
              errorCode: "TIMEOUT",
              message: "createCashJournal timed out",
              operation: "createCashJournal",
            });
          };
        },
      });
      setBrokerForTests(gone);
      try {
        const approved = await as(CHECKER, () => approveApprovalAction({ id }));
        expect(approved).toMatchObject({
          ok: true,
          data: { status: "executing", error: expect.stringContaining("did not answer in time") },
        });
      } finally {
        setBrokerForTests(f.client);
      }
      expect(await getApproval(f.db, id)).toMatchObject({ status: "executing" });
      expect((await movement(crid))?.status).not.toBe("FAILED");
      // Once it counts as stopped, the recovery asks again: still unknown upstream, nothing was sent.
      expect(await recoverStuckExecutions(f.db, { id, olderThanMs: 0, now: new Date(Date.now() + 60_000) })).toBe(1);
      expect(await getApproval(f.db, id)).toMatchObject({ status: "failed", error: NOT_SENT_MESSAGE });
    });

    it("an execution whose claim the recovery began to check before its send sends nothing", async () => {
      const { id } = await hold("60003.00");
      const stored = await getApproval(f.db, id);
      // Claimed, then stalled past the limit: the recovery has taken it for stopped and is asking the upstream.
      await f.db.engine.query(
        "UPDATE brokerdesk.approval_requests SET status = 'executing', decided_at = now(), checking_since = now() WHERE id = $1",
        [id],
      );
      await f.api.call("POST", "/sandbox/calls/reset");
      const checker = actionContext(CHECKER, f.db, { ip: "10.0.0.8", userAgent: "test" } as never);
      const done = await executeRequest(
        {
          id,
          action: stored.action,
          target: stored.target,
          payload: stored.payload,
          maker_id: MAKER.id,
          maker_email: MAKER.email,
          maker_role: MAKER.role,
          diff: null,
        },
        checker,
      );
      expect(done).toMatchObject({ status: "executing", upstreamRequestId: null });
      expect(await calls()).toBe(0);
      // The recovery then finds nothing upstream, and that is so.
      expect(await recoverStuckExecutions(f.db, { id, olderThanMs: 0, now: new Date(Date.now() + 60_000) })).toBe(1);
      expect(await getApproval(f.db, id)).toMatchObject({ status: "failed", error: NOT_SENT_MESSAGE });
      expect(await calls()).toBe(0);
    });

    it("an execution whose process stopped is settled by asking the upstream, never by sending again", async () => {
      // Two requests claimed by a process that then stopped: one had reached the upstream, one had not.
      const sent = await hold("20000.00");
      const lost = await hold("21000.00");
      const stop = (id: string) =>
        f.db.engine.query(
          "UPDATE brokerdesk.approval_requests SET status = 'executing', decided_at = now() - interval '11 minutes' WHERE id = $1",
          [id],
        );
      await stop(sent.id);
      await stop(lost.id);
      const stored = (await getApproval(f.db, sent.id))!.payload as Record<string, unknown>;
      expect((await f.client.createCashJournal(stored as never)).status).toBe("COMPLETED");
      await f.api.call("POST", "/sandbox/calls/reset");
      // Not yet: an execution may still be running.
      expect(await recoverStuckExecutions(f.db, { olderThanMs: 60 * 60_000 })).toBe(0);
      expect(await recoverStuckExecutions(f.db)).toBe(2);
      expect(await calls()).toBe(0);
      expect(await getApproval(f.db, sent.id)).toMatchObject({ status: "executed", error: null });
      expect(await getApproval(f.db, lost.id)).toMatchObject({ status: "failed", error: NOT_SENT_MESSAGE });
      expect(await movement(lost.crid)).toMatchObject({ status: "FAILED" });
      // Settled once: a second sweep finds nothing, and each is audited once.
      expect(await recoverStuckExecutions(f.db)).toBe(0);
      const entries = (await listAudit(f.db.engine, { action: "approvals.recover" })).rows.filter((e) =>
        [`approval:${sent.id}`, `approval:${lost.id}`].includes(e.target ?? ""),
      );
      expect(entries.map((e) => [e.target, e.outcome, e.errorCode ?? null]).sort()).toEqual(
        [
          [`approval:${lost.id}`, "failure", "NOT_SENT"],
          [`approval:${sent.id}`, "success", null],
        ].sort(),
      );
    });

    it("20 concurrent approvals send one upstream request and move the balances once", async () => {
      const { id } = await hold("12345.67");
      await f.api.call("POST", "/sandbox/calls/reset");
      const [from0, to0] = [await cash(master, "USD"), await cash(to, "USD")];
      const approvers = Array.from({ length: 20 }, (_, i) => person(100 + i, "operations"));
      const results = await Promise.all(approvers.map((a) => as(a, () => approveApprovalAction({ id }))));
      const executed = results.filter((r) => r.ok);
      expect(executed).toHaveLength(1);
      expect(executed[0]).toMatchObject({ data: { status: "executed" } });
      expect(results.filter((r) => !r.ok).map((r) => (r as { code: string }).code)).toEqual(Array(19).fill("APPROVAL_CLOSED"));
      expect(await calls()).toBe(1);
      expect((await cash(master, "USD")).minus(from0).toFixed(2)).toBe("-12345.67");
      expect((await cash(to, "USD")).minus(to0).toFixed(2)).toBe("12345.67");
      expect((await getApproval(f.db, id)).decisions).toHaveLength(1);
    }, 60_000);

    it("an account update raising the option level to LV3, or changing the W-8BEN, waits with its diff; other updates go through", async () => {
      session.staff = ADMIN;
      expect(await saveApprovalRuleAction(rule({ action: "accounts.option_level_raise", approverRoles: ["admin"] }))).toMatchObject({
        ok: true,
      });
      expect(await saveApprovalRuleAction(rule({ action: "accounts.w8ben_change" }))).toMatchObject({ ok: true });
      const account = ACCOUNTS.optionsLv2;
      const current = async () => (await f.client.getVirtualAccount({ account_id: account })) as AccountView;
      const values = () => current().then((a) => formValuesFromAccount(a, newClientId("vau")));

      const other = (await values()).commission_code === "COMMISSION_GROUP_2" ? "COMMISSION_GROUP_1" : "COMMISSION_GROUP_2";
      const plain = await as(MAKER, async () => updateVirtualAccount({ ...(await values()), commission_code: other } as never));
      expect(plain).toMatchObject({ ok: true, data: { accountId: account } });

      const raise = { ...(await values()), option_level: "LV3" as const };
      const held = await as(MAKER, () => updateVirtualAccount(raise as never));
      if (!held.ok || !isPendingApproval(held.data)) throw new Error(`not held: ${JSON.stringify(held)}`);
      const approvalId = held.data.approvalId;
      expect((await current()).option_level).toBe("LV2");
      const detail = await getApproval(f.db, approvalId);
      expect(detail).toMatchObject({
        ruleAction: "accounts.option_level_raise",
        summary: `Update of account ${(await current()).account_number}: option level LV2 → LV3`,
        diff: [{ path: "option_level", before: "LV2", after: "LV3" }],
      });
      expect(await as(CHECKER, () => approveApprovalAction({ id: approvalId }))).toMatchObject({ ok: false, code: "NOT_AN_APPROVER" });
      expect(await as(ADMIN, () => approveApprovalAction({ id: approvalId }))).toMatchObject({ ok: true, data: { status: "executed" } });
      expect((await current()).option_level).toBe("LV3");

      const w8 = await values();
      const taxChange = { ...w8, w8ben_info: { ...w8.w8ben_info, tax_id: "987654321" } };
      const heldW8 = await as(MAKER, () => updateVirtualAccount(taxChange as never));
      if (!heldW8.ok || !isPendingApproval(heldW8.data)) throw new Error(`not held: ${JSON.stringify(heldW8)}`);
      const w8detail = await getApproval(f.db, heldW8.data.approvalId);
      expect(w8detail.ruleAction).toBe("accounts.w8ben_change");
      expect(w8detail.diff).toEqual([expect.objectContaining({ path: "w8ben_info.tax_id", after: "987654321" })]);
      // Compliance reads the inbox without pii:view: the tax id is masked in the payload and the diff.
      const masked = maskApprovalPii(w8detail);
      expect(JSON.stringify(masked.payload)).not.toContain("987654321");
      expect(JSON.stringify(masked.diff)).not.toContain("987654321");
      const heldAudit = (await listAudit(f.db.engine, { action: "accounts.update", outcome: "held" })).rows;
      expect(JSON.stringify(heldAudit.map((e) => e.input))).not.toContain("987654321");

      // The account changes while the W-8BEN update waits: approving it then would put the old commission code back
      // (an update sends every field). It is refused, nothing is sent, and the change made in between stays.
      const interim = (await values()).commission_code === "COMMISSION_GROUP_2" ? "COMMISSION_GROUP_1" : "COMMISSION_GROUP_2";
      expect(await as(MAKER, async () => updateVirtualAccount({ ...(await values()), commission_code: interim } as never))).toMatchObject({
        ok: true,
      });
      const w8Id = heldW8.data.approvalId;
      const approved = await as(CHECKER, () => approveApprovalAction({ id: w8Id }));
      expect(approved).toMatchObject({ ok: true, data: { status: "failed" } });
      expect(approved.ok && approved.data.error).toMatch(/changed after this update was requested \(commission code\)\. Nothing was sent/);
      const after = await current();
      expect(after.commission_code).toBe(interim);
      expect(after.w8ben_info?.tax_id).not.toBe("987654321");
      const [refusal] = (await listAudit(f.db.engine, { action: "accounts.update", outcome: "failure" })).rows;
      expect(refusal).toMatchObject({ errorCode: "ACCOUNT_CHANGED", target: `account:${account}`, upstreamRequestId: null });

      // Held again from the account as it is now, it goes through.
      const again = await values();
      const heldAgain = await as(MAKER, () =>
        updateVirtualAccount({ ...again, w8ben_info: { ...again.w8ben_info, tax_id: "987654321" } } as never),
      );
      if (!heldAgain.ok || !isPendingApproval(heldAgain.data)) throw new Error(`not held: ${JSON.stringify(heldAgain)}`);
      const againId = heldAgain.data.approvalId;
      expect(await as(CHECKER, () => approveApprovalAction({ id: againId }))).toMatchObject({ ok: true, data: { status: "executed" } });
      expect(await current()).toMatchObject({ commission_code: interim, w8ben_info: expect.objectContaining({ tax_id: "987654321" }) });
    });

    it("reconciliation asks the upstream nothing about movements held, declined, withdrawn or expired", async () => {
      const { reconcile } = await import("@/server/events/sync");
      const { crid } = await hold("45000.00");
      const run = await reconcile({ engine: f.db.engine, client: f.client }, { afterMs: 0 });
      expect(run.errors).toBe(0); // the upstream has never heard of them: a detail call would fail
      expect((await movement(crid)).status).toBe("AWAITING_APPROVAL");
    });

    it("lists pending requests first", async () => {
      const { id } = await hold("40000.00");
      const page = await listApprovals(f.db, {}, { limit: 100 });
      expect(page.rows[0]).toMatchObject({ id, status: "pending", approvals: 0, approversRequired: 1, makerEmail: MAKER.email });
      const firstClosed = page.rows.findIndex((r) => r.status !== "pending");
      expect(page.rows.slice(firstClosed).every((r) => r.status !== "pending")).toBe(true);
      expect((await listApprovals(f.db, { status: "executed" }, { limit: 100 })).rows.every((r) => r.status === "executed")).toBe(true);
    });
  });
}
