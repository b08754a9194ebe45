import { beforeEach, describe, expect, it, vi } from "vitest";
import type { StatusPageData } from "@/lib/status";
import { openIncident, saveModule } from "@/server/status/queries";
import { withAppDb } from "../helpers/app-db";

/** GET /api/status: every staff role sees the details; signed out, only with STATUS_PUBLIC, and states only. */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const SUPPORT = { id: "00000000-0000-4000-8000-000000000002", email: "support@example.test", name: "S", role: "support" };
const db = withAppDb();
const get = async () => {
  // The route reads the configuration when called: a fresh module sees the stubbed variables.
  vi.resetModules();
  const { GET } = await import("@/app/api/status/route");
  return GET(new Request("http://desk.test/api/status"), { params: Promise.resolve({}) });
};

describe("GET /api/status", () => {
  beforeEach(async () => {
    session.staff = SUPPORT;
    vi.unstubAllEnvs();
    await db().engine.query("DELETE FROM brokerdesk.status_incidents");
    await saveModule(db().engine, {
      module: "order",
      state: "outage",
      changed: true,
      candidate: null,
      streak: 0,
      evidence: { reason: "the probe failed (3 ms)" },
    });
    await openIncident(db().engine, "order", "outage", { reason: "the probe failed (3 ms)" });
  });

  it("shows a staff member every module with its evidence and incidents", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as StatusPageData;
    expect(body.detailed).toBe(true);
    expect(body.modules).toHaveLength(12);
    const order = body.modules.find((m) => m.module === "order")!;
    expect(order).toMatchObject({ state: "outage", label: "Order", evidence: "the probe failed (3 ms)" });
    expect(order.incidents).toEqual([expect.objectContaining({ state: "outage", evidence: "the probe failed (3 ms)" })]);
    expect(body.modules.find((m) => m.module === "funding")).toMatchObject({ state: "unknown", incidents: [] });
  });

  it("asks a signed-out caller to sign in, unless the page is public; public, it shows states only", async () => {
    session.staff = null;
    expect((await get()).status).toBe(401);
    vi.stubEnv("STATUS_PUBLIC", "true");
    vi.resetModules();
    const { env } = await import("@/lib/env");
    expect(env().STATUS_PUBLIC).toBe(true);
    const res = await get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as StatusPageData;
    expect(body.detailed).toBe(false);
    const order = body.modules.find((m) => m.module === "order")!;
    expect(order.state).toBe("outage");
    expect(order.uptime).toHaveLength(90);
    expect(JSON.stringify(body)).not.toContain("probe failed");
  });
});
