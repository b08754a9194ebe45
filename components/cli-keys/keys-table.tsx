"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Mono } from "@/components/ui/mono";
import { createdColumn, lastUsedColumn, scopesColumn } from "@/components/tokens/credential-columns";
import { CredentialsTable } from "@/components/tokens/credentials-table";
import { accessKeyListParams, type AccessKeyRow } from "@/lib/schemas/access-key-list";
import { revokeCliAccessKey } from "@/server/actions/cli-keys-revoke";
import { accessKeyList } from "./query-keys";

const COLUMNS: ColumnDef<AccessKeyRow>[] = [
  { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
  { id: "key", header: "Access key id", meta: { label: "Access key id" }, cell: ({ row: { original: k } }) => <Mono>{k.id}</Mono> },
  scopesColumn<AccessKeyRow>(),
  createdColumn<AccessKeyRow>(),
  lastUsedColumn<AccessKeyRow>(),
];

const VIEWS = {
  label: "Whose access keys",
  options: [
    { value: "mine" as const, label: "My keys" },
    { value: "all" as const, label: "Every staff member's" },
  ],
};
const EMPTY = { all: "No staff member has an access key yet.", mine: "You have no access keys yet. Create one with the form." };
const describe = (k: AccessKeyRow) => `the access key “${k.name}” (${k.id})`;
const revoke = (k: AccessKeyRow) => revokeCliAccessKey({ id: k.id });

/** The command line's access keys, through /api/access-keys (the live `access-key` notice reads them again). */
export function KeysTable({ meId, canManage }: { meId: string; canManage: boolean }) {
  return (
    <CredentialsTable
      params={accessKeyListParams}
      resource={accessKeyList}
      root="access-keys"
      meId={meId}
      canManage={canManage}
      views={VIEWS}
      columns={COLUMNS}
      describe={describe}
      revoke={revoke}
      consequence="Its sessions end, and the command line signed in with it stops working at once."
      empty={EMPTY}
      rowTestId={(k) => `access-key-row-${k.id}`}
    />
  );
}
