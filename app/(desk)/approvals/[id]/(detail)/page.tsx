import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { ApprovalCheck } from "@/components/approvals/approval-check";
import { ApprovalDecide } from "@/components/approvals/approval-decide";
import { ApprovalView } from "@/components/approvals/approval-view";
import { findApproval } from "./lookup";
import { RefreshOnChange } from "@/components/live/refresh-on-change";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { ruleActionLabel } from "@/lib/schemas/approvals";
import { decisionControls } from "@/server/approvals/decisions";
import { approvableOperation } from "@/server/approvals/registry";
import { maskApprovalPii } from "@/server/approvals/requests";

export const metadata: Metadata = { title: "Approval request" };

/**
 * Thin page: the request (expired first when due), and the controls this person may use; read again when an
 * approval changes anywhere (a decision on another instance, an execution's outcome, a recovery).
 */
export default lookupPage(
  "approvals:read",
  ({ id }: { id: string }) => findApproval(id),
  (stored, { staff }) => {
    const r = can(staff, "pii:view") ? stored : maskApprovalPii(stored);
    const controls = decisionControls(r, staff);
    const op = approvableOperation(r.action);
    const parsed = op?.schema.safeParse(stored.payload);
    const resultLink = parsed?.success ? op?.resultLink?.(parsed.data) : undefined;
    const decide =
      controls.approve || controls.reject || controls.withdraw ? (
        <ApprovalDecide id={r.id} summary={r.summary} controls={controls} />
      ) : undefined;
    return (
      <>
        <PageHeader title={`Approval: ${ruleActionLabel(r.ruleAction)}`} back={{ href: "/approvals", label: "Approvals" }} />
        <RefreshOnChange topics={["approval"]} />
        <ApprovalView
          r={r}
          now={new Date().getTime()}
          resultLink={resultLink}
          decide={decide}
          check={r.checkingSince && can(staff, "jobs:manage") ? <ApprovalCheck id={r.id} /> : undefined}
        />
      </>
    );
  },
);
