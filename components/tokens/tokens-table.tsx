"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Mono } from "@/components/ui/mono";
import { formatDateTime } from "@/lib/format";
import { tokenListParams, type TokenRow } from "@/lib/schemas/token-list";
import { revokeAccessToken } from "@/server/actions/tokens-revoke";
import { createdColumn, dimCell, lastUsedColumn, scopesColumn } from "./credential-columns";
import { CredentialsTable } from "./credentials-table";
import { tokenList } from "./query-keys";

const COLUMNS: ColumnDef<TokenRow>[] = [
  { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
  { id: "prefix", header: "Token", meta: { label: "Token" }, cell: ({ row: { original: t } }) => <Mono>{t.prefix}…</Mono> },
  scopesColumn<TokenRow>(),
  createdColumn<TokenRow>(),
  {
    id: "expires",
    header: "Expires",
    meta: { label: "Expires", className: dimCell },
    cell: ({ row }) => formatDateTime(row.original.expiresAt),
  },
  lastUsedColumn<TokenRow>(),
];

const VIEWS = {
  label: "Whose tokens",
  options: [
    { value: "mine" as const, label: "My tokens" },
    { value: "all" as const, label: "Every staff member's" },
  ],
};
const EMPTY = { all: "No staff member has an access token yet.", mine: "You have no access tokens yet. Create one with the form." };
const describe = (t: TokenRow) => `the token “${t.name}” (${t.prefix}…)`;
const revoke = (t: TokenRow) => revokeAccessToken({ id: t.id });

/** Access tokens, through /api/tokens (the live `token` notice reads them again). */
export function TokensTable({ meId, canManage }: { meId: string; canManage: boolean }) {
  return (
    <CredentialsTable
      params={tokenListParams}
      resource={tokenList}
      root="tokens"
      meId={meId}
      canManage={canManage}
      views={VIEWS}
      columns={COLUMNS}
      describe={describe}
      revoke={revoke}
      consequence="Anything using it stops working at once."
      empty={EMPTY}
      rowTestId={(t) => `token-row-${t.prefix}`}
    />
  );
}
