import type { Metadata } from "next";
import { LinkButton } from "@/components/ui/button";
import { listPage } from "@/app/(desk)/list-page";
import { AccountsTable } from "@/components/accounts/accounts-table";
import { accountList } from "@/components/accounts/query-keys";
import { can } from "@/lib/auth/permissions";
import { accountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";

export const metadata = { title: "Virtual accounts" } satisfies Metadata;

/** One upstream page prefetched, then the client table takes over. */
export default listPage(metadata, "accounts:read", accountListParams, (params, { staff }) => ({
  description: "Sub-accounts of the omnibus master account, newest first.",
  actions: can(staff, "accounts:write") ? <LinkButton href="/accounts/new">Open account</LinkButton> : null,
  prefetch: [{ queryKey: accountList.key(params), queryFn: () => listAccountsPage(params) }],
  table: <AccountsTable />,
}));
