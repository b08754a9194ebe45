"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { dayColumn, scopesColumn } from "@/components/tokens/credential-columns";
import { CredentialsTable } from "@/components/tokens/credentials-table";
import { Mono } from "@/components/ui/mono";
import { accessKeyListParams, type AccessKeyRow, type AccessKeyView } from "@/lib/schemas/access-key-list";
import { revokeCliAccessKey } from "@/server/actions/cli-keys-revoke";
import { accessKeyLists, invalidateAccessKeyLists } from "./query-keys";

const COLUMNS: ColumnDef<AccessKeyRow>[] = [
  { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
  { id: "key", header: "Access key id", meta: { label: "Access key id" }, cell: ({ row: { original: k } }) => <Mono>{k.id}</Mono> },
  scopesColumn<AccessKeyRow>(),
  dayColumn<AccessKeyRow>("created", "Created", (k) => k.createdAt),
];

const revoke = (k: AccessKeyRow) => revokeCliAccessKey({ id: k.id });
const confirm = (k: AccessKeyRow, whose: string) =>
  `Revoke the access key “${k.name}” (${k.id})${whose}? Its sessions end: the command line logged in with it stops working at once.`;
const revoked = (k: AccessKeyRow, whose: string) => `The access key “${k.name}”${whose} is revoked.`;

/**
 * The command line's access keys, one's own or everyone's, through the view's GET route; a key created or revoked
 * anywhere (an audit entry with the `access-key` notice) reads them again.
 */
export function KeysTable({ view, meId }: { view: AccessKeyView; meId: string }) {
  return (
    <CredentialsTable
      everyone={view === "all"}
      params={accessKeyListParams}
      resource={accessKeyLists[view]}
      meId={meId}
      columns={COLUMNS}
      revoke={revoke}
      confirm={confirm}
      revoked={revoked}
      invalidate={invalidateAccessKeyLists}
      empty={view === "all" ? "No staff member has an access key yet." : "You have no access keys yet. Create one with the form."}
      rowTestId={(k) => `access-key-row-${k.id}`}
    />
  );
}
