import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { BatchResults } from "@/components/bulk-journals/batch-view";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { findBatch } from "./lookup";

export const metadata: Metadata = { title: "Bulk journal batch" };

/** Thin page: a batch's rows and their results, live while it executes; the retry for staff who may move money. */
export default lookupPage(
  "movements:read",
  ({ batchId }: { batchId: string }) => findBatch(batchId),
  (view, { staff }) => (
    <>
      <PageHeader title={`Bulk journals ${view.id}`} back={{ href: "/movements", label: "Movements" }} />
      <BatchResults view={view} canRetry={can(staff, "movements:write")} />
    </>
  ),
);
