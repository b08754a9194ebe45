import type { Metadata } from "next";
import Link from "next/link";
import { AccountsTable } from "@/components/accounts/accounts-table";
import { accountKeys } from "@/components/accounts/query-keys";
import { ListPage } from "@/components/data-table/list-page";
import { can } from "@/lib/auth/permissions";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Virtual accounts" };

/** Thin page: permission, URL state, one prefetched upstream page, then the client table takes over. */
export default async function AccountsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requirePermission("accounts:read");
  const params = parseAccountListParams(await searchParams);
  return (
    <ListPage
      prefetch={(client) => client.prefetchQuery({ queryKey: accountKeys.list(params), queryFn: () => listAccountsPage(params) })}
      title="Virtual accounts"
      description="Sub-accounts of the omnibus master account, newest first."
      actions={
        can(staff.role, "accounts:write") ? (
          <Link
            href="/accounts/new"
            className="inline-flex h-8 items-center rounded bg-blue-700 px-3 text-sm font-medium text-white hover:bg-blue-800"
          >
            Open account
          </Link>
        ) : null
      }
    >
      <AccountsTable />
    </ListPage>
  );
}
