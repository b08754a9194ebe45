"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Mono } from "@/components/ui/mono";
import { tokenListParams, type TokenRow, type TokenView } from "@/lib/schemas/token-list";
import { revokeAccessToken } from "@/server/actions/tokens-revoke";
import { dayColumn, scopesColumn } from "./credential-columns";
import { CredentialsTable } from "./credentials-table";
import { invalidateTokenLists, tokenLists } from "./query-keys";

const COLUMNS: ColumnDef<TokenRow>[] = [
  { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
  { id: "prefix", header: "Token", meta: { label: "Token" }, cell: ({ row: { original: t } }) => <Mono>{t.prefix}…</Mono> },
  scopesColumn<TokenRow>(),
  dayColumn<TokenRow>("created", "Created", (t) => t.createdAt),
  dayColumn<TokenRow>("expires", "Expires", (t) => t.expiresAt),
];

const revoke = (t: TokenRow) => revokeAccessToken({ id: t.id });
const confirm = (t: TokenRow, whose: string) =>
  `Revoke the token “${t.name}” (${t.prefix}…)${whose}? Anything using it stops working at once.`;
const revoked = (t: TokenRow, whose: string) => `The token “${t.name}”${whose} is revoked.`;

/**
 * Access tokens, one's own or everyone's, through the view's GET route; a token created or revoked anywhere (an
 * audit entry with the `token` notice) reads them again.
 */
export function TokensTable({ view, meId }: { view: TokenView; meId: string }) {
  return (
    <CredentialsTable
      everyone={view === "all"}
      params={tokenListParams}
      resource={tokenLists[view]}
      meId={meId}
      columns={COLUMNS}
      revoke={revoke}
      confirm={confirm}
      revoked={revoked}
      invalidate={invalidateTokenLists}
      empty={view === "all" ? "No staff member has an access token yet." : "You have no access tokens yet. Create one with the form."}
      rowTestId={(t) => `token-row-${t.prefix}`}
    />
  );
}
