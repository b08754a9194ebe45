import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { ApprovalTrail } from "@/components/approvals/approval-view";
import { PendingApprovalMarker } from "@/components/approvals/pending-marker";
import { MovementDetailView } from "@/components/movement-detail/movement-detail";
import { findMovement } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { movementTypeLabel } from "@/lib/schemas/movement-list";
import { can } from "@/lib/auth/permissions";
import { pendingMarks } from "@/server/approvals/queue";
import { approvalsOfRequest, maskApprovalPii } from "@/server/approvals/requests";
import { getDb } from "@/server/db";
import { movementOperation } from "@/server/movements";

export const metadata: Metadata = { title: "Movement" };

type Params = { kind: string; clientRequestId: string };

/**
 * Thin page: the movement from the read model, the held request waiting for its approval ("Pending approval", live)
 * and the approvals it went through; the client view keeps it live.
 */
export default lookupPage(
  "movements:read",
  ({ kind, clientRequestId }: Params) => findMovement(kind, clientRequestId),
  async (detail, { staff, params }) => {
    const db = await getDb();
    const op = movementOperation(detail.movement.kind);
    const readsApprovals = can(staff, "approvals:read");
    const by = { clientRequestId: params.clientRequestId };
    const [approvals, pending] = readsApprovals
      ? await Promise.all([op ? approvalsOfRequest(db, [op.action], params.clientRequestId) : [], pendingMarks(db, by)])
      : [[], []];
    const shown = can(staff, "pii:view") ? approvals : approvals.map(maskApprovalPii);
    return (
      <>
        <PageHeader
          title={`${movementTypeLabel(detail.movement.kind, detail.movement.direction)} ${detail.movement.clientRequestId}`}
          back={{ href: "/movements", label: "Movements" }}
        />
        {readsApprovals ? <PendingApprovalMarker by={by} initial={pending} className="mb-3" /> : null}
        <MovementDetailView initial={detail} aside={shown.length ? <ApprovalTrail approvals={shown} /> : undefined} />
      </>
    );
  },
);
