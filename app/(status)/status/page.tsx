import type { Metadata } from "next";
import { ReadAt } from "@/components/live/read-at";
import { StatusBoard } from "@/components/status/status-board";
import { StatusSubscribe } from "@/components/status/status-subscribe";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { currentStaff } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";
import { statusPageData } from "@/server/status/page";
import { statusMailOff } from "@/server/status-mail/config";

export const metadata: Metadata = { title: "Upstream status" };
export const dynamic = "force-dynamic";

export default async function StatusPage() {
  // The layout let only staff with status:read, or anyone when the page is public, this far.
  const staff = await currentStaff();
  const detailed = !!staff && can(staff, "status:read");
  const readAt = requestReadAt();
  const data = await statusPageData((await getDb()).engine, detailed);
  const e = env();
  return (
    <>
      <PageHeader
        title="Upstream status"
        description={`Which of the upstream's modules answer the desk: from the desk's own calls, light probes and the event stream, evaluated every ${Math.round(e.STATUS_EVAL_MS / 1000)} s over the last ${Math.round(e.STATUS_WINDOW_MS / 1000)} s.`}
      />
      <ReadAt at={readAt}>
        <StatusBoard initial={data} live={detailed} aside={<StatusSubscribe off={!!statusMailOff(e)} />} />
      </ReadAt>
    </>
  );
}
