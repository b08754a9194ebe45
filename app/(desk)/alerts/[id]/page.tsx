import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AlertDecisionForm } from "@/components/alerts/alert-decision-form";
import { AlertDetail } from "@/components/alerts/alert-detail";
import { findAlert } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Alert" };

/** Thin page: permission, the alert from the database; a reviewer decides an open one here. */
export default async function AlertPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("alerts:read");
  const { id } = await params;
  const alert = await findAlert(id);
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
