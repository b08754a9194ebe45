import type { Metadata } from "next";
import { AccountForm } from "@/components/accounts/account-form";
import { PageHeader } from "@/components/ui/page";
import { tryRead } from "@/lib/errors";
import { newClientId } from "@/lib/ids";
import { getMasterAccount } from "@/server/accounts/master";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Open a virtual account" };

/** The form opens here, so this is where its one client_request_id is made (a reload is a new form). */
export default async function NewAccountPage() {
  await requirePermission("accounts:write");
  const { value: master, problem } = await tryRead(getMasterAccount(), "The broker could not be reached.");
  return (
    <>
      <PageHeader
        title="Open a virtual account"
        back={{ href: "/accounts", label: "Accounts" }}
        problem={problem && `${problem} The master account could not be read; the form can still be filled in.`}
      />
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
