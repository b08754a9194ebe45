import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrokerClient } from "@/server/broker/client";
import { recordDeskMovement } from "@/server/books/desk";
import { getMovementDetail, refreshMovementFromUpstream } from "@/server/movement-list/detail";
import { withAppDb } from "../helpers/app-db";
import { engines, masterAccountId, rid, seedAccountId, startFixture, type Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * "Refresh from upstream" on a movement page against a started sandbox: the live detail call (a journal read at its
 * from-account) and its effect on the desk's records through the consumer's own snapshot code.
 */
const db = withAppDb();
let f: Fixture;
let client: BrokerClient;
const [a, b] = [seedAccountId(2), seedAccountId(0)];

beforeAll(async () => {
  f = await startFixture(engines[0]);
  client = sandboxBroker(f.sb.url);
}, 120_000);
afterAll(async () => {
  await f?.close();
});

const journal = (id: string, from: string, to: string, amount: string) =>
  f.api.op("createCashJournal", "resource", {
    body: { from_account: from, to_account: to, client_request_id: id, amount, currency: "USD" },
  });
const recordSubmitted = (id: string, from: string, to: string, amount: string) =>
  recordDeskMovement(db().engine, {
    kind: "CASH_JOURNAL",
    clientRequestId: id,
    requestedBy: "ops@example.test",
    fields: { from_account: from, to_account: to, amount, currency: "USD" },
  });

describe("refresh a movement from upstream", () => {
  it("a journal completed upstream while the desk still says SUBMITTED: corrected by a snapshot, then the records agree", async () => {
    const id = rid("cj");
    expect((await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: true } })).status).toBe(200);
    expect((await journal(id, a, b, "1.25")).body).toMatchObject({ status: "SUBMITTED" });
    await recordSubmitted(id, a, b, "1.25");
    expect((await f.api.call("POST", "/sandbox/requests/complete", { body: { kind: "CASH_JOURNAL", client_request_id: id } })).status).toBe(
      200,
    );
    await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: false } });

    const first = await refreshMovementFromUpstream(db().engine, client, "CASH_JOURNAL", id);
    expect(first).toMatchObject({ status: "COMPLETED", applied: "diverged", raw: expect.objectContaining({ client_request_id: id }) });
    const after = await getMovementDetail(db().engine, "CASH_JOURNAL", id);
    expect(after.movement).toMatchObject({ status: "COMPLETED", requestedBy: "ops@example.test", fromAccount: a, toAccount: b });
    expect(after.timeline.map((t) => [t.source, t.status])).toEqual([
      ["desk", "SUBMITTED"],
      ["snapshot", "COMPLETED"],
    ]);

    const second = await refreshMovementFromUpstream(db().engine, client, "CASH_JOURNAL", id);
    expect(second.applied).toBe("same");
    expect((await getMovementDetail(db().engine, "CASH_JOURNAL", id)).movement.detailAt).not.toBeNull();
  });

  it("a journal the sandbox rejected: the sandbox's reason reaches the desk's records", async () => {
    const id = rid("cj");
    const sent = await journal(id, b, a, "999999999.00");
    expect(sent.body).toMatchObject({ status: "REJECTED" });
    await recordSubmitted(id, b, a, "999999999.00");
    const live = await refreshMovementFromUpstream(db().engine, client, "CASH_JOURNAL", id);
    expect(live.reason).toBe(sent.body.reason);
    const d = await getMovementDetail(db().engine, "CASH_JOURNAL", id);
    expect(d.movement).toMatchObject({ status: "REJECTED", reason: sent.body.reason });
  });

  it("a completed FX request recorded without its bought amount and rate: the refresh fills both from the detail", async () => {
    const id = rid("fx");
    const fields = { account_id: masterAccountId(), from_currency: "USD", to_currency: "HKD", from_amount: "100.00" };
    const sent = await f.api.op("createFxRequest", "resource", { body: { ...fields, client_request_id: id } });
    expect(sent.body).toMatchObject({ status: "COMPLETED" });
    // As the desk recorded one before it kept the answer's amount and rate.
    await recordDeskMovement(db().engine, {
      kind: "FX_EXCHANGE",
      clientRequestId: id,
      requestedBy: "ops@example.test",
      fields: { ...fields, status: "COMPLETED" },
    });
    expect((await getMovementDetail(db().engine, "FX_EXCHANGE", id)).movement).toMatchObject({ toAmount: null, fxRate: null });

    const first = await refreshMovementFromUpstream(db().engine, client, "FX_EXCHANGE", id);
    expect(first).toMatchObject({ status: "COMPLETED", applied: "enriched" });
    const { movement } = await getMovementDetail(db().engine, "FX_EXCHANGE", id);
    expect(movement).toMatchObject({ status: "COMPLETED", toCurrency: "HKD", toAmount: sent.body.to_amount, fxRate: sent.body.fx_rate });
    expect(movement.detailAt).not.toBeNull();
    expect((await refreshMovementFromUpstream(db().engine, client, "FX_EXCHANGE", id)).applied).toBe("same");
  });

  it("a movement the desk does not know is not found, before any upstream call", async () => {
    await expect(refreshMovementFromUpstream(db().engine, client, "CASH_JOURNAL", "nothing-here")).rejects.toMatchObject({
      name: "NotFoundError",
    });
  });
});
