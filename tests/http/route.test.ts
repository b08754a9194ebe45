import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError, NotFoundError } from "@/lib/errors";
import { listAudit } from "@/server/audit/list";
import { BrokerError } from "@/server/broker/errors";
import { csvRoute, jsonRoute } from "@/server/http";
import { setRequiredRoles } from "@/server/two-factor/two-factor";
import { withAppDb } from "../helpers/app-db";
import { COMPLIANCE, SUPPORT } from "../helpers/session-guard";
import { newStaff } from "../helpers/staff";
import { enrol } from "../helpers/two-factor";

/** The route helpers with a fake session (no Next request scope in a unit test) and an in-memory database. */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const db = withAppDb();
beforeEach(() => {
  session.staff = SUPPORT;
  // One trusted proxy in front: the X-Forwarded-For entry it appended is the client's address.
  vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
});

const call = (handler: ReturnType<typeof jsonRoute>, url: string, path: Record<string, string> = {}) =>
  handler(new Request(`http://desk.test${url}`, { headers: { "user-agent": "vitest", "x-forwarded-for": "6.6.6.6, 10.0.0.7" } }), {
    params: Promise.resolve(path),
  });

const accountRoute = jsonRoute(
  { permission: "accounts:read", params: z.object({ accountId: z.string().min(3), cursor: z.string().optional() }) },
  async ({ params, staff }) => {
    if (params.accountId === "GONE") throw new NotFoundError("This account does not exist.");
    if (params.accountId === "SLOW")
      throw new BrokerError({ status: 429, errorCode: "TOO_MANY_REQUESTS", message: "x", requestId: "req-429" });
    if (params.accountId === "DOWN")
      throw new BrokerError({ status: 503, errorCode: "SERVICE_NOT_AVAILABLE", message: "upstream stack trace", requestId: "req-503" });
    if (params.accountId === "RULE") throw new AppError("ACCOUNT_LOCKED", "locked by rule 7", "This account is locked for review.");
    if (params.accountId === "BUG") throw new Error("internal detail");
    // An error that looks like an app error (a code and a message) but is not one: an internal failure.
    if (params.accountId === "LOOKALIKE")
      throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", userMessage: "leak" });
    return { id: params.accountId, cursor: params.cursor ?? null, viewer: staff.email };
  },
);

describe("jsonRoute", () => {
  it("answers the work's result as uncached JSON, with path and query parameters parsed together", async () => {
    const res = await call(accountRoute, "/api/x?cursor=c2", { accountId: "A42" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ id: "A42", cursor: "c2", viewer: SUPPORT.email });
  });

  it("tells its own time in Server-Timing, on answers and on refusals alike", async () => {
    // The handler's clock moved by hand: the work takes 40 ms of it, and nothing else does, however busy the machine.
    let now = 1_000;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      const work = vi.fn(async () => {
        now += 40;
        return { ok: true };
      });
      const slow = jsonRoute({ permission: "accounts:read" }, work);
      const dur = (res: Response) => /^app;dur=([\d.]+)$/.exec(res.headers.get("server-timing") ?? "")?.[1];
      expect(dur(await call(slow, "/api/x"))).toBe("40.0");
      session.staff = null;
      const refused = await call(slow, "/api/x");
      expect(refused.status).toBe(401);
      // The refusal's own time, which holds none of the work's: the work never started.
      expect(dur(refused)).toBe("0.0");
      expect(work).toHaveBeenCalledTimes(1);
    } finally {
      clock.mockRestore();
    }
  });

  it("401 without a session, 403 without the permission; the work does not run", async () => {
    const work = vi.fn(async () => ({}));
    const adminOnly = jsonRoute({ permission: "staff:manage" }, work);
    session.staff = null;
    expect((await call(adminOnly, "/api/x")).status).toBe(401);
    session.staff = SUPPORT;
    const denied = await call(adminOnly, "/api/x");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: "FORBIDDEN", message: "You do not have permission to do this." });
    expect(work).not.toHaveBeenCalled();
  });

  it("400 on bad parameters, naming them", async () => {
    const res = await call(accountRoute, "/api/x", { accountId: "A" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "BAD_REQUEST", fieldErrors: { accountId: expect.any(String) } });
  });

  it("a domain not-found is a real 404; upstream failures are 429/502 with the safe message and request id; the rest 500 without detail", async () => {
    const gone = await call(accountRoute, "/api/x", { accountId: "GONE" });
    expect([gone.status, await gone.json()]).toEqual([404, { error: "NOT_FOUND", message: "This account does not exist." }]);
    const slow = await call(accountRoute, "/api/x", { accountId: "SLOW" });
    expect([slow.status, (await slow.json()).requestId]).toEqual([429, "req-429"]);
    const down = await call(accountRoute, "/api/x", { accountId: "DOWN" });
    const body = await down.json();
    expect(down.status).toBe(502);
    expect(body).toMatchObject({
      error: "SERVICE_NOT_AVAILABLE",
      requestId: "req-503",
      message: expect.stringMatching(/temporarily unavailable/),
    });
    expect(JSON.stringify(body)).not.toContain("stack trace");
    const bug = await call(accountRoute, "/api/x", { accountId: "BUG" });
    expect([bug.status, await bug.json()]).toEqual([500, { error: "INTERNAL", message: "Something went wrong. Try again." }]);
    const lookalike = await call(accountRoute, "/api/x", { accountId: "LOOKALIKE" });
    expect([lookalike.status, await lookalike.json()]).toEqual([500, { error: "INTERNAL", message: "Something went wrong. Try again." }]);
  });

  it("an app error the work throws on purpose is a 422 with its code and its message for people", async () => {
    const rule = await call(accountRoute, "/api/x", { accountId: "RULE" });
    expect([rule.status, await rule.json()]).toEqual([422, { error: "ACCOUNT_LOCKED", message: "This account is locked for review." }]);
  });
});

describe("a member whose role requires two-factor sign-in and who has not enrolled", () => {
  it("gets 403 ENROL_FIRST from a route whatever its permission, the work not run, a download's refusal audited; enrolled, passes", async () => {
    const admin = await newStaff(db(), "admin", "route.test");
    const member = await newStaff(db(), "compliance", "route.test");
    await setRequiredRoles(db(), ["compliance"], admin.id);
    try {
      session.staff = member;
      const work = vi.fn(async () => ({ read: true }));
      const route = jsonRoute({ permission: "accounts:read" }, work);
      const refused = await call(route, "/api/x");
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: "ENROL_FIRST", message: expect.stringContaining("Settings → Security") });
      // The enrolment comes before the permission: the same answer where the role lacks it.
      expect(await (await call(jsonRoute({ permission: "staff:manage" }, work), "/api/x")).json()).toMatchObject({ error: "ENROL_FIRST" });
      const rows = vi.fn(async function* () {
        yield [1, "x"];
      });
      const download = csvRoute(
        { permission: "audit:read", action: "enrol.export", filename: "things", columns: ["N", "Kind"], filter: () => ({}) },
        rows,
      );
      expect((await call(download, "/api/things/export")).status).toBe(403);
      expect(work).not.toHaveBeenCalled();
      expect(rows).not.toHaveBeenCalled();
      expect(
        (await listAudit(db().engine, { action: "enrol.export" })).rows.map((e) => `${e.outcome}:${e.errorCode}:${e.actorEmail}`),
      ).toEqual([`denied:ENROL_FIRST:${member.email}`]);

      await enrol(db(), member);
      const passed = await call(route, "/api/x");
      expect([passed.status, await passed.json()]).toEqual([200, { read: true }]);
    } finally {
      await setRequiredRoles(db(), [], admin.id);
    }
  });
});

describe("csvRoute", () => {
  const exportOf = (rows: (filter: { kind?: string }) => AsyncIterable<(string | number)[]>, action: string) =>
    csvRoute(
      {
        permission: "audit:read",
        params: z.object({ kind: z.string().optional(), size: z.string().optional() }),
        filter: (p) => ({ kind: p.kind }),
        action,
        filename: "things",
        columns: ["N", "Kind"],
      },
      ({ params }) => rows(params),
    );
  const entries = async (action: string) => (await listAudit(db().engine, { action })).rows;

  it("streams the file and writes exactly one audit entry: action, filter, row count, outcome, who and from where", async () => {
    session.staff = COMPLIANCE;
    const route = exportOf(async function* ({ kind }) {
      for (let i = 1; i <= 450; i++) yield [i, kind ?? "=all"];
    }, "things.export");
    const res = await call(route, "/api/things/export?kind=odd&size=50");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="things-\d{14}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // UTF-8 with its byte order mark: spreadsheet programs read "Müller" as UTF-8 only with it.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines).toHaveLength(451);
    expect(lines.slice(0, 2)).toEqual(["N,Kind", "1,odd"]);
    const written = await entries("things.export");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      outcome: "success",
      actorEmail: COMPLIANCE.email,
      input: { filter: { kind: "odd" }, rows: 450 },
      clientIp: "10.0.0.7",
      userAgent: "vitest",
    });
  });

  it("an upstream failure before the first row is a JSON error and one failure entry; a denial is one denied entry", async () => {
    session.staff = COMPLIANCE;
    const route = exportOf(async function* () {
      yield* [];
      throw new BrokerError({ status: 503, errorCode: "SERVICE_NOT_AVAILABLE", message: "x", requestId: "req-1" });
    }, "broken.export");
    const res = await call(route, "/api/things/export");
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toContain("application/json");
    session.staff = SUPPORT;
    expect((await call(route, "/api/things/export")).status).toBe(403);
    expect((await entries("broken.export")).map((e) => `${e.outcome}:${e.errorCode}:${e.actorEmail}`)).toEqual([
      `denied:FORBIDDEN:${SUPPORT.email}`,
      `failure:SERVICE_NOT_AVAILABLE:${COMPLIANCE.email}`,
    ]);
  });

  it("a download cancelled half-way is one failure entry with the rows read so far", async () => {
    session.staff = COMPLIANCE;
    const route = exportOf(async function* () {
      for (let i = 1; ; i++) yield [i, "x"];
    }, "endless.export");
    const res = await call(route, "/api/things/export");
    const reader = res.body!.getReader();
    await reader.read(); // the header
    await reader.read(); // a batch
    await reader.cancel();
    const written = await entries("endless.export");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ outcome: "failure", errorCode: "CANCELLED" });
    expect((written[0].input as { rows: number }).rows).toBeGreaterThan(0);
  });

  it("a requester who leaves while the first rows are read is one failure entry, and the rows' reader is closed", async () => {
    session.staff = COMPLIANCE;
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    let reading!: () => void;
    const started = new Promise<void>((r) => (reading = r));
    let closed = false;
    const route = exportOf(async function* () {
      try {
        reading();
        await slow; // a statement built, an upstream page read
        for (let i = 1; ; i++) yield [i, "x"];
      } finally {
        closed = true;
      }
    }, "left.export");
    const requester = new AbortController();
    const answered = route(new Request("http://desk.test/api/things/export", { signal: requester.signal }), {
      params: Promise.resolve({}),
    });
    await started;
    // The tab closed: nothing will read the answer, nor cancel its body.
    requester.abort();
    release();
    expect((await answered).status).toBe(499);
    await vi.waitFor(() => expect(closed).toBe(true));
    const written = await entries("left.export");
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ outcome: "failure", errorCode: "CANCELLED", input: { rows: 0 } });
  });
});
