import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ApprovalTrail } from "@/components/approvals/approval-view";
import { MovementDetailView } from "@/components/movement-detail/movement-detail";
import { findMovement } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { movementTypeLabel } from "@/lib/schemas/movement-list";
import { can } from "@/lib/auth/permissions";
import { approvalsOfRequest, maskApprovalPii } from "@/server/approvals/requests";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { movementOperation } from "@/server/movements";

export const metadata: Metadata = { title: "Movement" };

/** Thin page: permission, the movement from the read model; the client view keeps it live. */
export default async function MovementPage({ params }: { params: Promise<{ kind: string; clientRequestId: string }> }) {
  const staff = await requirePermission("movements:read");
  const { kind, clientRequestId } = await params;
  const db = await getDb();
  const detail = await findMovement(kind, clientRequestId);
  if (!detail) notFound();
  const op = movementOperation(detail.movement.kind);
  const approvals = op && can(staff.role, "approvals:read") ? await approvalsOfRequest(db, [op.action], clientRequestId) : [];
  const shown = can(staff.role, "pii:view") ? approvals : approvals.map(maskApprovalPii);
  return (
    <>
      <PageHeader
        title={`${movementTypeLabel(detail.movement.kind, detail.movement.direction)} ${detail.movement.clientRequestId}`}
        description={
          <Link href="/movements" className="text-blue-700 hover:underline">
            ← Movements
          </Link>
        }
      />
      <MovementDetailView initial={detail} aside={shown.length ? <ApprovalTrail approvals={shown} /> : undefined} />
    </>
  );
}
