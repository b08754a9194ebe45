import type { Metadata } from "next";
import { JobsPanel } from "@/components/jobs/jobs-panel";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { ensureJobs } from "@/server/jobs";
import { jobsOverview } from "@/server/jobs/admin";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

export default async function JobsPage() {
  await requirePermission("jobs:manage");
  await ensureJobs();
  const overview = await jobsOverview((await getDb()).engine);
  return (
    <>
      <PageHeader
        title="Background jobs"
        description="The work that runs beside the desk: the activities sweep, backfill, reconciliation, order details, surveillance and approval expiry. A job whose worker stopped is taken up again once it expires."
      />
      <JobsPanel initial={overview} />
    </>
  );
}
