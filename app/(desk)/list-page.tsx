import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { ListPage, type Prefetch } from "@/components/data-table/list-page";
import type { Permission } from "@/lib/auth/permissions";
import { resolveAccount } from "@/server/accounts/directory";
import { requirePermission, type Staff } from "@/server/auth/guard";
import { getDb, type AppDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";

type Search = Record<string, string | string[] | undefined>;

/** What a listing's page shows under its title: the header's text and actions, its first page(s), its client table. */
export interface ListView {
  description: ReactNode;
  actions?: ReactNode;
  /** The first page(s), read on the server into what the client table takes over (a falsy entry skipped). */
  prefetch: (Prefetch | false | undefined)[];
  table: ReactNode;
}

/**
 * A listing's page, declared: its title (its metadata's), the permission (checked again for the staff member the
 * page acts for: the group's layout refused above the loading state), the URL state parsed with the list's own
 * params, then what it shows (`ListView`), given the staff member, the app's database, the list's filters alone
 * and the raw search params.
 */
export function listPage<S, F>(
  metadata: { title: string },
  permission: Permission,
  params: { parse: (search: Search) => S; filters: (state: S) => F },
  view: (params: S, page: { staff: Staff; db: AppDb; filter: F; search: Search }) => ListView | Promise<ListView>,
  /** A listing with an account filter: its path, so that a filter given by the upstream's id is shown by number. */
  accountFilter?: { path: string },
) {
  return async function ListingPage({ searchParams }: { searchParams: Promise<Search> }) {
    const staff = await requirePermission(permission);
    const search = await searchParams;
    const state = params.parse(search);
    const db = await getDb();
    if (accountFilter) await accountByNumber(db, accountFilter.path, search, (state as { account?: string }).account);
    const readAt = requestReadAt();
    const { table, ...shown } = await view(state, { staff, db, filter: params.filters(state), search });
    return (
      <ListPage title={metadata.title} readAt={readAt} {...shown}>
        {table}
      </ListPage>
    );
  };
}

/**
 * An account filter given by the upstream's id (a link from the audit trail, the ticket, an account's page) and
 * known to the directory: the page answers with the same address carrying the account's number, which filters the
 * same, so the filter field and the address show what staff call the account, never the id.
 */
async function accountByNumber(db: AppDb, path: string, search: Search, account: string | undefined): Promise<void> {
  if (!account) return;
  const { accountNumber } = await resolveAccount(db.engine, account);
  if (!accountNumber || accountNumber === account) return;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) for (const one of [v ?? []].flat()) if (k !== "account") query.append(k, one);
  query.set("account", accountNumber);
  redirect(`${path}?${query}`);
}
