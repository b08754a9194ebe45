import "server-only";
import type { ActionResult, PendingApproval } from "@/lib/errors";
import type { BulkDecisionResult } from "@/lib/schemas/approval-queue";
import type { ApproveOutcome } from "@/lib/schemas/approvals";

/**
 * Several decisions in one go, each taken exactly as the one-by-one decision is: `decide` runs the same action
 * definition (`approvals.approve` / `approvals.reject`, through `runAction`) for each request on its own, so each gets the same checks
 * (permission, not one's own request, still pending, not expired, not decided twice), the same single execution of
 * an approved request and its own audit entry. One after another, in the order given: a request that fails does not
 * stop the others. The answer says, for each request, what became of it in words.
 */
export async function decideEach<T>(
  ids: string[],
  decide: (id: string) => Promise<ActionResult<T | PendingApproval>>,
  words: (data: T) => Pick<BulkDecisionResult, "outcome" | "message">,
  verb: "approve" | "reject",
): Promise<BulkDecisionResult[]> {
  const results: BulkDecisionResult[] = [];
  for (const id of ids) {
    // A decision is never held for approval itself: its data is the decision's outcome.
    const result = (await decide(id)) as ActionResult<T>;
    results.push({ id, ...(result.ok ? words(result.data) : refused(result, verb)) });
  }
  return results;
}

/** An approval's outcome in words: sent, waiting for more approvals, or approved with a failed send. */
export function approvedWords(o: ApproveOutcome): Pick<BulkDecisionResult, "outcome" | "message"> {
  if (o.status === "executed") return { outcome: "approved", message: "Approved and sent" };
  if (o.status === "failed") return { outcome: "failed", message: `Approved, but sending failed: ${o.error ?? "see the request"}` };
  const more = o.required - o.approvals;
  return { outcome: "approved", message: `Approved: waits for ${more === 1 ? "one more approval" : `${more} more approvals`}` };
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** A refusal in words (nothing was done to the request). */
function refused(
  r: Extract<ActionResult<unknown>, { ok: false }>,
  verb: "approve" | "reject",
): Pick<BulkDecisionResult, "outcome" | "message"> {
  const message = (() => {
    switch (r.code) {
      case "OWN_REQUEST":
        return `Not yours to ${verb}: you made this request`;
      case "NOT_AN_APPROVER":
        return `Not yours to ${verb}: the rule names other roles as approvers`;
      case "ALREADY_DECIDED":
        return "Already decided: you decided this request before";
      case "APPROVAL_CLOSED":
        return `Already decided: ${lower(r.serverError)}`;
      case "APPROVAL_EXPIRED":
        return "Expired: nobody decided it in time";
      case "NOT_FOUND":
        return "No such request";
      default:
        return r.serverError;
    }
  })();
  return { outcome: "refused", message };
}
