import type { Metadata } from "next";
import { BulkJournalUpload } from "@/components/bulk-journals/upload-form";
import { PageHeader } from "@/components/ui/page";
import { newClientId } from "@/lib/ids";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Bulk journals" };

/**
 * A CSV of cash or position journals, checked row by row, then held for approval as one request. The form opens
 * here, so this is where its batch id is made, once a request (the session check makes the page render per
 * request): the server's HTML and the browser show the same one.
 */
export default async function Page() {
  await requirePermission("movements:write");
  return (
    <>
      <PageHeader
        title="Bulk journals"
        description="Upload a CSV of cash or position journals. Every row is checked first; the batch then waits for a second person's approval as one request."
      />
      <BulkJournalUpload batchId={newClientId("bj")} />
    </>
  );
}
