import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { createFxRequestAction } from "@/server/actions/movements";
import { JOBS } from "@/server/jobs/definitions";
import { getMovementDetail } from "@/server/movement-list/detail";
import { masterAccountId } from "@/server/sandbox/seed";
import { testEngines } from "../helpers/engines";
import { useFixtureWithoutRules } from "../helpers/four-eyes";
import { session } from "../helpers/desk-session";
import { streamConnected, until } from "../events/helpers";

/**
 * An FX request sent through the desk's action, against a started sandbox with the event consumer and the job
 * system running: what was bought and at what rate reach the desk's records, whether the request completes at once
 * (the create's answer says so) or later (its completion event carries only the request's fields; the detail call
 * the completion asks for brings them).
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.19"));

const OPS = { id: "00000000-0000-4000-8000-000000000003", email: "ops@example.test", name: "Ops", role: "operations" };
const MASTER = masterAccountId();

for (const engine of testEngines()) {
  describe(`an FX request's bought amount and rate on ${engine.name}`, () => {
    const f = useFixtureWithoutRules(engine);
    beforeAll(async () => {
      f.service();
      await f.jobs({ jobs: [JOBS.orderDetails] });
      await streamConnected(f);
    });
    beforeEach(() => {
      session.staff = OPS;
    });

    const send = (id: string, amount: string) =>
      createFxRequestAction({ client_request_id: id, account_id: MASTER, from_currency: "USD", to_currency: "HKD", from_amount: amount });
    /** What the sandbox booked: its detail of the request. */
    const booked = async (id: string) => {
      const d = await f.client.getFxRequest({ account_id: MASTER, client_request_id: id });
      expect(d).toMatchObject({ status: "COMPLETED", to_currency: "HKD", to_amount: expect.any(String), fx_rate: expect.any(String) });
      return { toAmount: d.to_amount, fxRate: d.fx_rate };
    };
    const movement = async (id: string) => (await getMovementDetail(f.db.engine, "FX_EXCHANGE", id)).movement;
    const streamEvent = async (id: string) =>
      (
        await f.db.engine.query(
          "SELECT 1 FROM brokerdesk.upstream_events WHERE source = 'stream' AND event_type = 'FUNDING' AND payload->>'client_request_id' = $1",
          [id],
        )
      ).rows.length > 0;

    it("completed at once: recorded with the amount and rate the answer gave, still there after the completion event", async () => {
      const id = newClientId("fx");
      expect(await send(id, "1000.00")).toMatchObject({ ok: true, data: { kind: "FX_EXCHANGE", status: "COMPLETED" } });
      const expected = await booked(id);
      expect(await movement(id)).toMatchObject({ status: "COMPLETED", amount: "1000.00", currency: "USD", toCurrency: "HKD", ...expected });
      await until(() => streamEvent(id), 20_000, "the completion event");
      expect(await movement(id)).toMatchObject({ status: "COMPLETED", toCurrency: "HKD", ...expected });
    });

    it("completed later: its completion event carries no amount or rate, and the detail call it asks for fills both", async () => {
      const id = newClientId("fx");
      expect((await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: true } })).status).toBe(200);
      try {
        expect(await send(id, "2500.00")).toMatchObject({ ok: true, data: { kind: "FX_EXCHANGE", status: "SUBMITTED" } });
      } finally {
        await f.api.call("POST", "/sandbox/requests/hold", { body: { enabled: false } });
      }
      expect(await movement(id)).toMatchObject({ status: "SUBMITTED", toAmount: null, fxRate: null });
      const done = await f.api.call("POST", "/sandbox/requests/complete", { body: { kind: "FX_EXCHANGE", client_request_id: id } });
      expect(done.status).toBe(200);
      const expected = await booked(id);
      await until(async () => (await movement(id)).toAmount, 20_000, "the bought amount");
      expect(await movement(id)).toMatchObject({ status: "COMPLETED", toCurrency: "HKD", detailAt: expect.any(String), ...expected });
      const { timeline } = await getMovementDetail(f.db.engine, "FX_EXCHANGE", id);
      expect(timeline.map((t) => [t.source, t.status])).toEqual([
        ["desk", "SUBMITTED"],
        ["stream", "COMPLETED"],
        ["snapshot", "COMPLETED"],
      ]);
    });
  });
}
