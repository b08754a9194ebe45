import type { Metadata } from "next";
import { MailInbox } from "@/components/status/mail-inbox";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { env } from "@/lib/env";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { statusMailOff } from "@/server/status-mail/config";
import { readInbox } from "@/server/status-mail/inbox";

export const metadata: Metadata = { title: "Mail" };
export const dynamic = "force-dynamic";

export default async function MailPage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  await requirePermission("mail:read");
  const { id } = await searchParams;
  const inbox = await readInbox((await getDb()).engine, id);
  const e = env();
  const external = !!e.SMTP_URL;
  const off = statusMailOff(e);
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
      {off ? (
        <div className="mb-3" data-testid="status-mail-off">
          <Alert tone="info">
            Status mail is off: {off}. Nobody can subscribe, and no confirmation or incident mail is sent
            {e.AUTH_SECRET ? "; the scheduled reports' mails, which carry no link, still are" : ", nor any scheduled report's"}.
          </Alert>
        </div>
      ) : null}
      <MailInbox {...inbox} />
    </>
  );
}
