import type { Metadata } from "next";
import { TwoFactorPanel, type TwoFactorState } from "@/components/security/two-factor-panel";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { qrDataUrl } from "@/server/two-factor/qr";
import { enrolmentOf, requiredRoles } from "@/server/two-factor/two-factor";

export const metadata: Metadata = { title: "Security" };

/**
 * Thin page: one's own two-factor sign-in. The one page open to a staff member whose role requires it before they
 * have enrolled (server/auth/guard.ts sends them here, with `required`).
 */
export default async function SecurityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("security:own", { enrolment: "optional" });
  const db = await getDb();
  const [enrolment, roles, { required: sent }] = await Promise.all([enrolmentOf(db, me), requiredRoles(db), searchParams]);
  const state: TwoFactorState = enrolment.status === "pending" ? { ...enrolment, qr: await qrDataUrl(enrolment.uri) } : enrolment;
  return (
    <>
      <PageHeader title="Security" description="How you sign in to the desk and to the command line." />
      <div className="max-w-3xl">
        <TwoFactorPanel state={state} required={roles.includes(me.role)} continueTo={sent ? "/" : undefined} />
      </div>
    </>
  );
}
