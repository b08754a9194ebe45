import { env } from "@/lib/env";
import { getDb } from "@/server/db";
import { openJsonRoute } from "@/server/http";
import { statusPageData } from "@/server/status/page";

export const dynamic = "force-dynamic";

/** The status page's data, for its refetches; with STATUS_PUBLIC also for signed-out callers (states only). */
export const GET = openJsonRoute({ permission: "status:read", open: () => env().STATUS_PUBLIC }, async (staff) =>
  statusPageData((await getDb()).engine, staff !== null),
);
