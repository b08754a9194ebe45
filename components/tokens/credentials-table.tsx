"use client";
import { useQueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { CursorPagination } from "@/components/data-table/data-table-controls";
import type { ListResource } from "@/components/data-table/list-resource";
import { useDataTable, useListQuery, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Segmented } from "@/components/ui/segmented";
import type { ActionResult } from "@/lib/errors";
import type { ListParams, PageState } from "@/lib/list-params";
import { ownerColumn, statusAndRevokeColumns, type Credential, type CredentialStatus } from "./credential-columns";

type View = "mine" | "all";

/**
 * A list of credentials (access tokens, the command line's access keys): URL state → one keyset page through its GET
 * route, prefetched by the page; one's own, or (an administrator) every staff member's with their owner; Revoke
 * confirmed first, naming the credential and, when it is someone else's, whose. Created or revoked anywhere (an
 * audit entry's notice on the live channel), the list reads its page again.
 */
export function CredentialsTable<
  T extends Credential & { id: string; status: CredentialStatus },
  St extends PageState & { view: View },
>(p: {
  params: ListParams<St>;
  resource: ListResource<St>;
  /** The query root to read again after a revocation. */
  root: string;
  meId: string;
  canManage: boolean;
  views: { label: string; options: { value: View; label: string }[] };
  /** The columns between the owner and the status. */
  columns: ColumnDef<T>[];
  /** "the token “x” (bdk_abc…)": in the confirmation and the success message. */
  describe: (t: T) => string;
  revoke: (t: T) => Promise<ActionResult<unknown>>;
  consequence: string;
  empty: Record<View, string>;
  rowTestId: (t: T) => string;
}) {
  const { run, busy: pending, banner } = useAction();
  const queryClient = useQueryClient();
  const list = useListState(p.params);
  const view = list.state.view;
  const { meId, root, describe, revoke: revokeAction, consequence } = p;
  const middle = p.columns;
  const columns = useMemo(() => {
    const revoke = (t: T) => {
      const whose = t.owner.id === meId ? "" : ` of ${t.owner.email}`;
      if (!window.confirm(`Revoke ${describe(t)}${whose}? ${consequence}`)) return;
      const what = describe(t);
      void run(() => revokeAction(t), {
        success: `${what.charAt(0).toUpperCase()}${what.slice(1)}${whose} is revoked.`,
        onSuccess: () => queryClient.invalidateQueries({ queryKey: [root] }),
      });
    };
    return [...(view === "all" ? [ownerColumn<T>()] : []), ...middle, ...statusAndRevokeColumns<T>(meId, pending, revoke)];
  }, [view, meId, pending, run, queryClient, root, describe, revokeAction, consequence, middle]);
  const query = useListQuery<ListPage<T>, St>(p.resource, list.state);
  const { table, pagination, busy } = useDataTable({
    list,
    columns,
    page: query.data,
    getRowId: (t) => t.id,
    fetching: query.isPlaceholderData,
  });

  return (
    <div className="flex flex-col gap-2">
      {p.canManage ? (
        <Segmented
          label={p.views.label}
          options={p.views.options}
          value={view}
          onChange={(v) => list.setFilters({ view: v } as Partial<St>)}
        />
      ) : null}
      <FormBanner banner={banner} />
      <DataTable table={table} query={query} busy={busy || pending} empty={p.empty[view]} rowTestId={p.rowTestId} />
      <CursorPagination {...pagination} />
    </div>
  );
}
