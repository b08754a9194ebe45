import type { Metadata } from "next";
import Link from "next/link";
import { AccountForm } from "@/components/accounts/account-form";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { newClientId } from "@/lib/ids";
import { getMasterAccount, type MasterAccount } from "@/server/accounts/master";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Open a virtual account" };

/** The form opens here, so this is where its one client_request_id is made (a reload is a new form). */
export default async function NewAccountPage() {
  await requirePermission("accounts:write");
  let master: MasterAccount | undefined;
  let problem: string | undefined;
  try {
    master = await getMasterAccount();
  } catch (error) {
    problem = (error as { userMessage?: string }).userMessage ?? "The broker could not be reached.";
  }
  return (
    <>
      <PageHeader
        title="Open a virtual account"
        description={
          <Link href="/accounts" className="text-blue-700 hover:underline">
            ← Accounts
          </Link>
        }
      />
      {problem ? (
        <div className="mb-3">
          <Alert>{problem} The master account could not be read; the form can still be filled in.</Alert>
        </div>
      ) : null}
      <AccountForm
        mode="create"
        clientRequestId={newClientId("va")}
        master={{
          accountNumber: master?.accountNumber,
          entityCode: master?.entityCode,
          optionLevel: master?.optionLevel,
          optionLevelSource: master?.optionLevelSource ?? "unknown",
        }}
      />
    </>
  );
}
