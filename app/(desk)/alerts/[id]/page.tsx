import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { AlertDecisionForm } from "@/components/alerts/alert-decision-form";
import { AlertDetail } from "@/components/alerts/alert-detail";
import { findAlert } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";

export const metadata: Metadata = { title: "Alert" };

/** Thin page: the alert from the database; a reviewer decides an open one here. */
export default lookupPage(
  "alerts:read",
  ({ id }: { id: string }) => findAlert(id),
  (alert, { staff }) => (
    <>
      <PageHeader title={`Alert #${alert.id}`} back={{ href: "/alerts", label: "Alerts" }} />
      <div className="flex flex-col gap-4">
        <AlertDetail alert={alert} />
        {alert.status === "open" && can(staff, "alerts:decide") ? (
          <div className="max-w-xl">
            <AlertDecisionForm alertId={alert.id} />
          </div>
        ) : null}
      </div>
    </>
  ),
);
