import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AlertDecisionForm } from "@/components/alerts/alert-decision-form";
import { AlertDetail } from "@/components/alerts/alert-detail";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { isNotFound } from "@/lib/errors";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { getAlert } from "@/server/surveillance/alerts";

export const metadata: Metadata = { title: "Alert" };

/** Thin page: permission, the alert from the database; a reviewer decides an open one here. */
export default async function AlertPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("alerts:read");
  const { id } = await params;
  const alert = await getAlert((await getDb()).engine, id).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
  if (!alert) notFound();
  return (
    <>
      <PageHeader
        title={`Alert #${alert.id}`}
        description={
          <Link href="/alerts" className="text-blue-700 hover:underline">
            ← Alerts
          </Link>
        }
      />
      <div className="flex flex-col gap-4">
        <AlertDetail alert={alert} />
        {alert.status === "open" && can(staff.role, "alerts:decide") ? (
          <div className="max-w-xl">
            <AlertDecisionForm alertId={alert.id} />
          </div>
        ) : null}
      </div>
    </>
  );
}
