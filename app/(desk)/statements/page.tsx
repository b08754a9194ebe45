import type { Metadata } from "next";
import { ReadAt } from "@/components/live/read-at";
import { StatementRuns } from "@/components/statements/statement-runs";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";
import { listStatementRuns } from "@/server/statements/bulk";

export const metadata: Metadata = { title: "Statements" };
export const dynamic = "force-dynamic";

/** Every account's statement of a period in one zip: ask for a run, watch its progress, download it. */
export default async function StatementsPage() {
  await requirePermission("statements:read");
  const readAt = requestReadAt();
  const runs = await listStatementRuns((await getDb()).engine);
  return (
    <>
      <PageHeader
        title="Statements"
        description="Every account's statement of a period, as PDF and CSV, in one zip. One account's statement and trade confirmations are on its page."
      />
      <ReadAt at={readAt}>
        <StatementRuns initial={runs} />
      </ReadAt>
    </>
  );
}
