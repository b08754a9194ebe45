import { getDb } from "@/server/db";
import { jsonRoute } from "@/server/http";
import { ensureJobs } from "@/server/jobs";
import { jobsOverview } from "@/server/jobs/admin";

export const dynamic = "force-dynamic";

/** The jobs page's data, for its refetches. */
export const GET = jsonRoute({ permission: "jobs:manage" }, async () => {
  await ensureJobs();
  return jobsOverview((await getDb()).engine);
});
