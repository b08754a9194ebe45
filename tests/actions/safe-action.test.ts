import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError, isPendingApproval } from "@/lib/errors";
import { defineAction, type ApprovalDecision } from "@/server/action-kit/define-action";
import { listAudit } from "@/server/audit/list";
import { setBrokerForTests, type BrokerClient } from "@/server/broker";
import { BrokerError } from "@/server/broker/errors";
import { withAppDb } from "../helpers/app-db";

/** The wrapper with a fake session and request (no Next request scope in a unit test) and an in-memory database. */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.9", userAgent: "vitest" }) }));

const OPS = { id: "00000000-0000-4000-8000-000000000001", email: "ops@example.test", name: "Ops", role: "operations" };
const db = withAppDb();
afterAll(() => setBrokerForTests(undefined));
beforeEach(() => {
  session.staff = OPS;
});

const entriesOf = async (action: string) => (await listAudit(db().engine, { action })).rows;
const input = z.object({ account_id: z.string().min(1), amount: z.string() });

describe("approval step", () => {
  it("a held action does not run its work, is audited once as held, and returns the pending result", async () => {
    const work = vi.fn(async () => "done");
    const policy = vi.fn(async (): Promise<ApprovalDecision> => ({ status: "held", approvalId: "apr_1", message: "Sent for approval." }));
    const transfer = defineAction({ name: "test.held", permission: "accounts:write", input, approval: policy, run: work });

    const result = await transfer({ account_id: "A1", amount: "25000" });

    expect(result).toEqual({ ok: true, data: { pending: true, approvalId: "apr_1", message: "Sent for approval." } });
    expect(result.ok && isPendingApproval(result.data)).toBe(true);
    expect(work).not.toHaveBeenCalled();
    expect(policy).toHaveBeenCalledWith(
      { account_id: "A1", amount: "25000" },
      expect.objectContaining({ staff: expect.objectContaining(OPS) }),
    );
    const entries = await entriesOf("test.held");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      outcome: "held",
      target: "approval:apr_1",
      actorEmail: OPS.email,
      input: { account_id: "A1", amount: "25000" },
    });
  });

  it("a proceeding policy runs the work; the policy is not asked before the input is valid or the user allowed", async () => {
    const policy = vi.fn(async (): Promise<ApprovalDecision> => ({ status: "proceed" }));
    const act = defineAction({ name: "test.proceed", permission: "accounts:write", input, approval: policy, run: async (i) => i.amount });
    expect(await act({ account_id: "A1", amount: "5" })).toEqual({ ok: true, data: "5" });
    expect(await act({ account_id: "", amount: "5" })).toMatchObject({ ok: false, code: "VALIDATION" });
    session.staff = { ...OPS, role: "support" };
    expect(await act({ account_id: "A1", amount: "5" })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(policy).toHaveBeenCalledTimes(1);
    expect((await entriesOf("test.proceed")).map((e) => e.outcome)).toEqual(["denied", "failure", "success"]);
  });
});

describe("ctx.broker", () => {
  it("records the upstream request id and the idempotency key of the calls the work makes, success or failure", async () => {
    let fail = false;
    const fake = {
      updateVirtualAccount: async (
        body: { account_id: string },
        ro?: { onResponse?: (i: { requestId?: string; attempts: number }) => void },
      ) => {
        if (fail) throw new BrokerError({ status: 417, errorCode: "ACCOUNT_CLOSED", message: "closed", requestId: "req-failed" });
        ro?.onResponse?.({ requestId: "req-ok", attempts: 1 });
        return { account_id: body.account_id };
      },
    } as unknown as BrokerClient;
    setBrokerForTests(fake);
    const update = defineAction({
      name: "test.broker",
      permission: "accounts:write",
      input: z.object({ account_id: z.string(), client_request_id: z.string() }),
      run: async (i, { broker }) =>
        (await broker.updateVirtualAccount({ account_id: i.account_id, client_request_id: i.client_request_id })).account_id,
    });

    expect(await update({ account_id: "A7", client_request_id: "va_key1" })).toEqual({ ok: true, data: "A7" });
    fail = true;
    expect(await update({ account_id: "A7", client_request_id: "va_key2" })).toMatchObject({ ok: false, code: "ACCOUNT_CLOSED" });

    const [failed, ok] = await entriesOf("test.broker");
    expect(ok).toMatchObject({ outcome: "success", upstreamRequestId: "req-ok", idempotencyKey: "va_key1" });
    expect(failed).toMatchObject({
      outcome: "failure",
      errorCode: "ACCOUNT_CLOSED",
      upstreamRequestId: "req-failed",
      idempotencyKey: "va_key2",
    });
  });
});

describe("errors", () => {
  it("an app error keeps its code, message, fields and request id; anything else is INTERNAL with the safe message", async () => {
    const failing = (error: unknown) =>
      defineAction({
        name: "test.errors",
        permission: "accounts:write",
        input,
        run: async () => {
          throw error;
        },
      });
    const refused = await failing(
      new AppError("LIMIT", "over 7", "Over the desk's limit.", { amount: "Too much" }, { requestId: "req-5" }),
    )({ account_id: "A1", amount: "1" });
    expect(refused).toEqual({ ok: false, code: "LIMIT", serverError: "Over the desk's limit.", fieldErrors: { amount: "Too much" } });
    // Looks like an app error (a code, a message) but is not one: not shown, not taken for a rule.
    const system = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", userMessage: "internal detail" });
    expect(await failing(system)({ account_id: "A1", amount: "1" })).toEqual({
      ok: false,
      code: "INTERNAL",
      serverError: "Something went wrong. Nothing was changed; try again.",
      fieldErrors: undefined,
    });
    const [internal, limit] = await entriesOf("test.errors");
    expect(limit).toMatchObject({ outcome: "failure", errorCode: "LIMIT", upstreamRequestId: "req-5" });
    expect(internal).toMatchObject({ outcome: "failure", errorCode: "INTERNAL" });
  });
});
