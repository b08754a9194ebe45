import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ROOT, sourceFiles } from "../helpers/source-files";

// Next renders a page and its layouts at the same time: the desk layout's session check does not stop a page's own
// reads, which run for a visitor without a session (and, for a page that uses no request data, in `next build`,
// against whatever upstream and database the build can reach). Every desk page checks its staff member before it
// reads anything. Here no one is signed in: the guard refuses, and the database and the upstream record any read
// that got past it (server/build-phase.ts is the one door both pass first).
const reached: string[] = [];
const NO_SESSION = new Error("no session");

vi.mock("@/server/build-phase", () => ({
  refuseWhileBuilding: (what: string) => {
    reached.push(what);
    throw new Error(`${what} read before the session check`);
  },
}));
vi.mock("@/server/auth/guard", () => ({
  currentStaff: async () => null,
  requireStaff: async () => Promise.reject(NO_SESSION),
  requirePermission: async () => Promise.reject(NO_SESSION),
}));

const DESK = path.join(ROOT, "app", "(desk)");
const pages = sourceFiles(["app/(desk)"]).filter((f) => f.endsWith("/page.tsx"));

// Every dynamic segment and every query parameter a desk page reads, so that no read hides behind an absent one.
const params = {
  id: "1",
  accountId: "A1",
  seq: "1",
  kind: "cash-journal",
  clientRequestId: "c1",
  market: "US",
  symbol: "AAPL",
  batchId: "b1",
};
const searchParams = { from: "A1", to: "A2", account: "A3", q: "x", id: "1", status: "OPEN", type: "DEPOSIT", symbol: "AAPL" };

describe("desk pages", () => {
  beforeEach(() => {
    reached.length = 0;
  });

  it.each(pages.map((p) => [path.relative(DESK, path.join(ROOT, p))]))("%s reads nothing before the session check", async (file) => {
    const { default: Page } = (await import(path.join(DESK, file))) as { default: (props: unknown) => unknown };
    await Promise.resolve(Page({ params: Promise.resolve(params), searchParams: Promise.resolve(searchParams) })).catch(
      (error: unknown) => {
        if (error !== NO_SESSION) throw error;
      },
    );
    expect(reached).toEqual([]);
  });
});
