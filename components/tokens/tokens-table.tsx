"use client";
import { useQueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { CursorPagination } from "@/components/data-table/data-table-controls";
import { useDataTable, useListQuery, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Mono } from "@/components/ui/mono";
import { formatDate, formatDateTime } from "@/lib/format";
import { tokenListParams, type TokenListParams, type TokenRow, type TokenStatus, type TokenView } from "@/lib/schemas/token-list";
import { revokeAccessToken } from "@/server/actions/tokens-revoke";
import { invalidateTokenLists, tokenLists } from "./query-keys";

const STATUS: Record<TokenStatus, { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "slate" },
  revoked: { label: "Revoked", tone: "red" },
};

const owner: ColumnDef<TokenRow> = {
  id: "owner",
  header: "Owner",
  meta: { label: "Owner" },
  cell: ({ row: { original: t } }) => (
    <span className="flex flex-col">
      <span>{t.owner.name}</span>
      <span className="font-mono text-xs text-slate-500">{t.owner.email}</span>
    </span>
  ),
};

const when = (value: string | null, none: string) => (value ? formatDateTime(value) : none);
const dim = "text-xs whitespace-nowrap text-slate-600";

/** The columns; Revoke on active tokens, confirmed first (`revoke` asks). */
function tokenColumns(view: TokenView, meId: string, pending: boolean, revoke: (t: TokenRow) => void): ColumnDef<TokenRow>[] {
  return [
    ...(view === "all" ? [owner] : []),
    { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
    { id: "prefix", header: "Token", meta: { label: "Token" }, cell: ({ row: { original: t } }) => <Mono>{t.prefix}…</Mono> },
    {
      id: "scopes",
      header: "Scopes",
      meta: { label: "Scopes" },
      cell: ({ row: { original: t } }) => (
        <span className="flex gap-1">
          {t.scopes.map((s) => (
            <Badge key={s} tone={s === "write" ? "amber" : "blue"}>
              {s}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      id: "created",
      header: "Created",
      meta: { label: "Created", className: dim },
      cell: ({ row: { original: t } }) => <span title={formatDateTime(t.createdAt)}>{formatDate(t.createdAt)}</span>,
    },
    {
      id: "expires",
      header: "Expires",
      meta: { label: "Expires", className: dim },
      cell: ({ row: { original: t } }) => <span title={formatDateTime(t.expiresAt)}>{formatDate(t.expiresAt)}</span>,
    },
    {
      id: "last_used",
      header: "Last used",
      meta: { label: "Last used", className: dim },
      cell: ({ row: { original: t } }) => (
        <span title={t.lastUsedIp ? `from ${t.lastUsedIp}` : undefined}>{when(t.lastUsedAt, "Never")}</span>
      ),
    },
    {
      id: "status",
      header: "Status",
      meta: { label: "Status" },
      cell: ({ row: { original: t } }) => (
        <span
          title={t.revokedAt ? `Revoked ${formatDateTime(t.revokedAt)}${t.revokedByEmail ? ` by ${t.revokedByEmail}` : ""}` : undefined}
        >
          <Badge tone={STATUS[t.status].tone}>{STATUS[t.status].label}</Badge>
        </span>
      ),
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "text-right whitespace-nowrap" },
      cell: ({ row: { original: t } }) =>
        t.status === "active" ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={pending}
            aria-label={`Revoke ${t.name}${t.owner.id === meId ? "" : ` of ${t.owner.email}`}`}
            onClick={() => revoke(t)}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];
}

/**
 * Access tokens, one's own or everyone's: URL state → one keyset page through the view's GET route, prefetched by
 * the page; a token created or revoked anywhere (an audit entry with the `token` notice) reads it again.
 */
export function TokensTable({ view, meId }: { view: TokenView; meId: string }) {
  const { run, busy: pending, banner } = useAction();
  const queryClient = useQueryClient();
  const list = useListState(tokenListParams);
  const columns = useMemo(() => {
    // Revoking is confirmed first, naming the token and, when it is someone else's, whose.
    const revoke = (t: TokenRow) => {
      const whose = t.owner.id === meId ? "" : ` of ${t.owner.email}`;
      if (!window.confirm(`Revoke the token “${t.name}” (${t.prefix}…)${whose}? Anything using it stops working at once.`)) return;
      void run(() => revokeAccessToken({ id: t.id }), {
        success: `The token “${t.name}”${whose} is revoked.`,
        onSuccess: () => invalidateTokenLists(queryClient),
      });
    };
    return tokenColumns(view, meId, pending, revoke);
  }, [view, meId, pending, run, queryClient]);
  const query = useListQuery<ListPage<TokenRow>, TokenListParams>(tokenLists[view], list.state);
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
      <DataTable
        table={table}
        query={query}
        busy={busy || pending}
        empty={view === "all" ? "No staff member has an access token yet." : "You have no access tokens yet. Create one with the form."}
        rowTestId={(t) => `token-row-${t.prefix}`}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
