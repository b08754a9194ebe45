import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ApprovalDecide } from "@/components/approvals/approval-decide";
import { ApprovalView } from "@/components/approvals/approval-view";
import { findApproval } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { ruleActionLabel } from "@/lib/schemas/approvals";
import { decisionControls } from "@/server/approvals/decisions";
import { approvableOperation } from "@/server/approvals/registry";
import { maskApprovalPii } from "@/server/approvals/requests";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Approval request" };

/** Thin page: permission, the request (expired first when due), and the controls this person may use. */
export default async function ApprovalPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("approvals:read");
  const { id } = await params;
  const stored = await findApproval(id);
  if (!stored) notFound();
  const r = can(staff.role, "pii:view") ? stored : maskApprovalPii(stored);
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
      <PageHeader
        title={`Approval: ${ruleActionLabel(r.ruleAction)}`}
        description={
          <Link href="/approvals" className="text-blue-700 hover:underline">
            ← Approvals
          </Link>
        }
      />
      <ApprovalView r={r} now={new Date().getTime()} resultLink={resultLink} decide={decide} />
    </>
  );
}
