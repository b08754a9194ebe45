import type { Metadata } from "next";
import { MailInbox } from "@/components/status/mail-inbox";
import { PageHeader } from "@/components/ui/page";
import { env } from "@/lib/env";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { readInbox } from "@/server/status-mail/inbox";

export const metadata: Metadata = { title: "Mail" };
export const dynamic = "force-dynamic";

export default async function MailPage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  await requirePermission("mail:read");
  const { id } = await searchParams;
  const inbox = await readInbox((await getDb()).engine, id);
  const external = !!env().SMTP_URL;
  return (
    <>
      <PageHeader
        title="Mail"
        description={
          external
            ? "SMTP_URL is set: mails go to that server, and this page only shows what the embedded server received before."
            : "What the embedded SMTP server received: no SMTP_URL is configured, so the desk's mails (status confirmations and incidents, scheduled reports with their files) end here."
        }
      />
      <MailInbox {...inbox} />
    </>
  );
}
