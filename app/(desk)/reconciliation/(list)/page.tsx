import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { BreaksTable } from "@/components/reconciliation/breaks-table";
import { breakList } from "@/components/reconciliation/labels";
import { RunsPanel } from "@/components/reconciliation/runs-panel";
import { can } from "@/lib/auth/permissions";
import { breakListParams } from "@/lib/schemas/reconciliation";
import { breakAssignees } from "@/server/reconciliation/breaks";
import { listBreaks, listRuns } from "@/server/reconciliation/queries";

export const metadata = { title: "Reconciliation" } satisfies Metadata;

/** The runs (live progress, the last one's summary) above the breaks they keep, the first page prefetched. */
export default listPage(metadata, "reconciliation:read", breakListParams, async (params, { db, staff, filter }) => {
  const [runs, assignees] = await Promise.all([listRuns(db.engine), breakAssignees(db.engine)]);
  return {
    description:
      "The books against the upstream after each market's close: every account's cash and positions, the master account beside its virtual accounts, and movements not final in time. What differs is a break, worked here until closed.",
    prefetch: [
      {
        queryKey: breakList.key(params),
        queryFn: () => listBreaks(db.engine, { ...filter, cursor: params.cursor, limit: params.size }),
      },
    ],
    table: (
      <div className="flex flex-col gap-4">
        <RunsPanel initial={runs} canRun={can(staff, "reconciliation:work")} />
        <BreaksTable assignees={assignees} runs={runs} />
      </div>
    ),
  };
});
