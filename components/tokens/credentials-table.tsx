"use client";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { CursorPagination } from "@/components/data-table/data-table-controls";
import type { ListResource } from "@/components/data-table/list-resource";
import { useDataTable, useListQuery, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { ActionResult } from "@/lib/errors";
import type { ListParams, PageState } from "@/lib/list-params";
import { credentialColumns, type Credential } from "./credential-columns";

/**
 * A list of credentials (access tokens, the command line's access keys), one's own or everyone's: URL state → one
 * keyset page through the view's GET route, prefetched by the page; Revoke confirmed first, naming the credential
 * and, when it is someone else's, whose. Created or revoked anywhere (an audit entry's notice on the live channel),
 * the lists read their page again.
 */
export function CredentialsTable<T extends Credential, St extends PageState>(p: {
  everyone: boolean;
  params: ListParams<St>;
  resource: ListResource<St>;
  meId: string;
  /** The credential's own columns, between the owner and when it was last used. */
  columns: ColumnDef<T>[];
  revoke: (t: T) => Promise<ActionResult<unknown>>;
  /** The confirmation and the success message, given whose it is ("" or " of someone@…"). */
  confirm: (t: T, whose: string) => string;
  revoked: (t: T, whose: string) => string;
  invalidate: (client: QueryClient) => Promise<void>;
  empty: string;
  rowTestId: (t: T) => string;
}) {
  const { run, busy: pending, banner } = useAction();
  const queryClient = useQueryClient();
  const list = useListState(p.params);
  const { everyone, meId, columns: own, revoke: revokeAction, confirm, revoked, invalidate } = p;
  const columns = useMemo(() => {
    const revoke = (t: T) => {
      const whose = t.owner.id === meId ? "" : ` of ${t.owner.email}`;
      if (!window.confirm(confirm(t, whose))) return;
      void run(() => revokeAction(t), { success: revoked(t, whose), onSuccess: () => invalidate(queryClient) });
    };
    return credentialColumns<T>({ everyone, own, meId, pending, revoke });
  }, [everyone, own, meId, pending, run, queryClient, revokeAction, confirm, revoked, invalidate]);
  const query = useListQuery<ListPage<T>, St>(p.resource, list.state);
  const { table, pagination, busy } = useDataTable({
    list,
    columns,
    page: query.data,
    getRowId: (t) => t.id,
    fetching: query.isPlaceholderData,
  });

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <FormBanner banner={banner} />
      <DataTable table={table} query={query} busy={busy || pending} empty={p.empty} rowTestId={p.rowTestId} />
      <CursorPagination {...pagination} />
    </div>
  );
}
