"use client";
import { useQueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { CursorPagination } from "@/components/data-table/data-table-controls";
import { useListing } from "@/components/data-table/use-data-table";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { ActionResult } from "@/lib/errors";
import type { PageState } from "@/lib/list-params";
import type { TokenView } from "@/lib/schemas/token-list";
import { credentialColumns, type Credential } from "./credential-columns";
import type { CredentialLists } from "./credential-lists";

/** What a kind of credential's list has of its own: columns, Revoke and its texts, the empty list's, the rows' test ids. */
export interface CredentialListKind<T extends Credential> {
  /** The column that tells one from another (a token's prefix, a key's id), after the name. */
  identifier: ColumnDef<T>;
  /** Its other days, after the day it was made. */
  days?: ColumnDef<T>[];
  revoke: (t: T) => Promise<ActionResult<unknown>>;
  /** The confirmation and the success message, given whose it is ("" or " of someone@…"). */
  confirm: (t: T, whose: string) => string;
  revoked: (t: T, whose: string) => string;
  empty: Record<TokenView, string>;
  rowTestId: (t: T) => string;
}

/**
 * A list of credentials (access tokens, the command line's access keys), one's own or everyone's: URL state → one
 * keyset page through the view's GET route, prefetched by the page; Revoke confirmed first, naming the credential
 * and, when it is someone else's, whose. Created or revoked anywhere (an audit entry's notice on the live channel),
 * the lists read their page again.
 */
export function CredentialsTable<T extends Credential, St extends PageState>({
  kind,
  lists,
  view,
  meId,
}: {
  kind: CredentialListKind<T>;
  lists: CredentialLists<St>;
  view: TokenView;
  meId: string;
}) {
  const { run, busy: pending, banner } = useAction();
  const queryClient = useQueryClient();
  const everyone = view === "all";
  const columns = useMemo(() => {
    const revoke = (t: T) => {
      const whose = t.owner.id === meId ? "" : ` of ${t.owner.email}`;
      if (!window.confirm(kind.confirm(t, whose))) return;
      void run(() => kind.revoke(t), { success: kind.revoked(t, whose), onSuccess: () => lists.invalidate(queryClient) });
    };
    return credentialColumns<T>({ everyone, identifier: kind.identifier, days: kind.days, meId, pending, revoke });
  }, [everyone, kind, lists, meId, pending, run, queryClient]);
  const { query, table, pagination, busy } = useListing<T, St>(lists.params, lists[view], { columns, getRowId: (t) => t.id });

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <FormBanner banner={banner} />
      <DataTable table={table} query={query} busy={busy || pending} empty={kind.empty[view]} rowTestId={kind.rowTestId} />
      <CursorPagination {...pagination} />
    </div>
  );
}
