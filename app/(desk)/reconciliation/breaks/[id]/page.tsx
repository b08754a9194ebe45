import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { BreakFacts } from "@/components/reconciliation/break-detail";
import { BreakWork } from "@/components/reconciliation/break-forms";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { getDb } from "@/server/db";
import { breakAssignees } from "@/server/reconciliation/breaks";
import { findBreak } from "./lookup";

export const metadata: Metadata = { title: "Break" };

/** Thin page: the break from the database; someone who works breaks assigns, comments on and closes it here. */
export default lookupPage(
  "reconciliation:read",
  ({ id }: { id: string }) => findBreak(id),
  async (item, { staff }) => (
    <>
      <PageHeader title={`Break #${item.id}`} back={{ href: "/reconciliation", label: "Reconciliation" }} />
      <div className="flex flex-col gap-4">
        <BreakFacts item={item} />
        {can(staff, "reconciliation:work") ? (
          <div className="max-w-2xl">
            <BreakWork
              breakId={item.id}
              open={item.status === "open"}
              assignee={item.assignedTo}
              assignees={await breakAssignees((await getDb()).engine)}
            />
          </div>
        ) : null}
      </div>
    </>
  ),
);
