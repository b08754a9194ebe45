import type { Metadata } from "next";
import { BulkJournalUpload } from "@/components/bulk-journals/upload-form";
import { PageHeader } from "@/components/ui/page";

export const metadata: Metadata = { title: "Bulk journals" };

/** A CSV of cash or position journals, checked row by row, then held for approval as one request. */
export default function Page() {
  return (
    <>
      <PageHeader
        title="Bulk journals"
        description="Upload a CSV of cash or position journals. Every row is checked first; the batch then waits for a second person's approval as one request."
      />
      <BulkJournalUpload />
    </>
  );
}
