import type { Metadata } from "next";
import { ReadAt } from "@/components/live/read-at";
import { ReportsView } from "@/components/reports/reports-view";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";
import { listReportRuns } from "@/server/reports/run";
import { listRecipientOptions, listSchedules } from "@/server/reports/schedules";

export const metadata: Metadata = { title: "Reports" };
export const dynamic = "force-dynamic";

/** Thin page: permission, the schedules, the staff they may name, the latest runs; the view is components/reports. */
export default async function ReportsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("reports:manage");
  const { engine } = await getDb();
  const readAt = requestReadAt();
  const [search, schedules, staff, runs] = await Promise.all([
    searchParams,
    listSchedules(engine),
    listRecipientOptions(engine),
    listReportRuns(engine),
  ]);
  const edit = typeof search.edit === "string" ? Number(search.edit) : undefined;
  return (
    <>
      <PageHeader
        title="Scheduled reports"
        description="Reports from the desk's books mailed as CSV or PDF to chosen staff. Each run covers the UTC day before it (00:00 to 24:00 UTC); times are UTC."
      />
      <ReadAt at={readAt}>
        <ReportsView schedules={schedules} staff={staff} runs={runs} editing={schedules.find((s) => s.id === edit)} />
      </ReadAt>
    </>
  );
}
