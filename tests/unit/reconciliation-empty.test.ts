import { describe, expect, it } from "vitest";
import { noBreaksText } from "@/components/reconciliation/use-runs";
import type { ReconciliationRun } from "@/lib/schemas/reconciliation";

const run = (id: number, status: ReconciliationRun["status"], done = 0, total: number | null = null): ReconciliationRun => ({
  id,
  trigger: "request",
  status,
  requestedBy: "ops@brokerdesk.test",
  requestedAt: "2026-11-29T06:00:00Z",
  finishedAt: status === "done" ? "2026-11-29T06:01:00Z" : null,
  total,
  done,
  summary: null,
  lastError: null,
});

// The UX review of 2026-11-29: the empty breaks table said "the books and the upstream agree" while a run was 16 of
// 41 accounts in, a clean bill of health before the comparison had finished.
describe("the breaks table with no breaks", () => {
  it("does not say the books agree while a run is comparing them", () => {
    const text = noBreaksText([run(2, "running", 16, 41), run(1, "done", 41, 41)]);
    expect(text).toBe("No breaks so far: run 2 is still comparing (16 of 41 accounts).");
    expect(noBreaksText([run(3, "queued")])).toBe("No breaks so far: run 3 is still comparing.");
  });

  it("says they agree once a run has compared them, and that nothing was compared before any run", () => {
    expect(noBreaksText([run(2, "failed"), run(1, "done", 41, 41)])).toBe("No breaks: the books and the upstream agreed in run 1.");
    expect(noBreaksText([run(1, "failed")])).toBe("No breaks: no run has compared the books yet.");
    expect(noBreaksText([])).toBe("No breaks: no run has compared the books yet.");
  });
});
