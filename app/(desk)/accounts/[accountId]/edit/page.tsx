import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { AccountForm } from "@/components/accounts/account-form";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { newClientId } from "@/lib/ids";
import { formValuesFromAccount } from "@/lib/schemas/virtual-account-view";
import { getAccountFor } from "@/server/accounts/accounts";
import { getMasterAccount } from "@/server/accounts/master";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Update account" };

export default async function EditAccountPage({ params }: { params: Promise<{ accountId: string }> }) {
  const staff = await requirePermission("accounts:write");
  // The form is prefilled with the W-8BEN as stored and sends it back whole: an editor must see it unmasked.
  if (!can(staff, "pii:view")) forbidden();
  const { accountId } = await params;
  const [account, master] = await Promise.all([getAccountFor(staff, accountId), getMasterAccount()]);
  if (!account) notFound();
  const clientRequestId = newClientId("vau");
  return (
    <>
      <PageHeader
        title={`Update ${account.account_number ?? account.account_id}`}
        back={{ href: `/accounts/${account.account_id}`, label: "Back to the account", prefetch: false }}
      />
      <AccountForm
        mode="edit"
        clientRequestId={clientRequestId}
        initial={formValuesFromAccount(account, clientRequestId)}
        accountNumber={account.account_number ?? ""}
        accountType={account.account_type ?? ""}
        externalNumber={account.external_account_number ?? ""}
        master={{
          accountNumber: master.accountNumber,
          entityCode: master.entityCode,
          optionLevel: master.optionLevel,
          optionLevelSource: master.optionLevelSource,
        }}
      />
    </>
  );
}
