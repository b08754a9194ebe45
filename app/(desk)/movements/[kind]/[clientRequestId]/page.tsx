import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MovementDetailView } from "@/components/movement-detail/movement-detail";
import { PageHeader } from "@/components/ui/page";
import { isNotFound } from "@/lib/errors";
import { movementTypeLabel } from "@/lib/schemas/movement-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { getMovementDetail } from "@/server/movement-list/detail";

export const metadata: Metadata = { title: "Movement" };

/** Thin page: permission, the movement from the read model; the client view keeps it live. */
export default async function MovementPage({ params }: { params: Promise<{ kind: string; clientRequestId: string }> }) {
  await requirePermission("movements:read");
  const { kind, clientRequestId } = await params;
  const detail = await getMovementDetail((await getDb()).engine, kind, clientRequestId).catch((e: unknown) =>
    isNotFound(e) ? undefined : Promise.reject(e),
  );
  if (!detail) notFound();
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
      <MovementDetailView initial={detail} />
    </>
  );
}
