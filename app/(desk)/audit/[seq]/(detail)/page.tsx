import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { AuditEntryDetail, RelatedEntries } from "@/components/audit/audit-entry-detail";
import { findAuditEntry } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { accountNumbers } from "@/server/accounts/directory";
import type { AuditEntryView } from "@/lib/schemas/audit";
import type { AuditRow } from "@/server/audit/entry";
import { relatedAuditEntries } from "@/server/audit/list";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Audit entry" };

/** Thin page: permission, one entry and its neighbours (same upstream request, same target) from the database. */
const view = ({ at, ...row }: AuditRow): AuditEntryView => ({ ...row, at: at.toISOString() });

export default lookupPage(
  "audit:read",
  ({ seq }: { seq: string }) => findAuditEntry(seq),
  async (entry) => {
    const db = await getDb();
    const accountId = /^(account|order):/.test(entry.target ?? "") ? entry.target!.split(":")[1] : undefined;
    const [related, numbers] = await Promise.all([
      relatedAuditEntries(db.engine, entry),
      accountNumbers(db.engine, accountId ? [accountId] : []),
    ]);
    return (
      <>
        <PageHeader title={`Audit entry #${entry.seq}`} back={{ href: "/audit", label: "Audit trail" }} />
        <div className="flex flex-col gap-4">
          <AuditEntryDetail entry={view(entry)} accountNumber={accountId ? numbers.get(accountId) : undefined} />
          <div className="grid gap-4 xl:grid-cols-2">
            <RelatedEntries
              title="Same upstream request"
              rows={related.sameRequest.map(view)}
              testId="related-request"
              empty={entry.upstreamRequestId ? "No other entry names this upstream request." : "This entry names no upstream request."}
              more={
                entry.upstreamRequestId
                  ? { href: `/audit?request=${encodeURIComponent(entry.upstreamRequestId)}`, label: "All in the trail" }
                  : undefined
              }
            />
            <RelatedEntries
              title="Same target, nearby"
              rows={related.sameTarget.map(view)}
              testId="related-target"
              empty={entry.target ? "No other entry of this target." : "This entry has no target."}
              more={entry.target ? { href: `/audit?target=${encodeURIComponent(entry.target)}`, label: "All in the trail" } : undefined}
            />
          </div>
        </div>
      </>
    );
  },
);
