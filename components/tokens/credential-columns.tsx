"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatDateTime } from "@/lib/format";
import type { TokenScope } from "@/lib/schemas/tokens";

/**
 * The columns that access tokens and the command line's access keys share: whose it is, its scopes, when it was
 * made and last used, its status, and Revoke (confirmed first by the caller's `revoke`).
 */
export interface Credential {
  name: string;
  scopes: TokenScope[];
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  revokedByEmail: string | null;
  owner: { id: string; email: string; name: string };
}

export type CredentialStatus = "active" | "expired" | "revoked";

const STATUS: Record<CredentialStatus, { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "slate" },
  revoked: { label: "Revoked", tone: "red" },
};

export const dimCell = "text-xs whitespace-nowrap text-slate-600";

export function ownerColumn<T extends Credential>(): ColumnDef<T> {
  return {
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
}

export function scopesColumn<T extends Credential>(): ColumnDef<T> {
  return {
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
  };
}

export function createdColumn<T extends Credential>(): ColumnDef<T> {
  return {
    id: "created",
    header: "Created",
    meta: { label: "Created", className: dimCell },
    cell: ({ row }) => formatDateTime(row.original.createdAt),
  };
}

export function lastUsedColumn<T extends Credential>(): ColumnDef<T> {
  return {
    id: "last_used",
    header: "Last used",
    meta: { label: "Last used", className: dimCell },
    cell: ({ row: { original: t } }) => (
      <span title={t.lastUsedIp ? `from ${t.lastUsedIp}` : undefined}>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : "Never"}</span>
    ),
  };
}

/** Status (who revoked it and when, on hover), and Revoke while it is active. */
export function statusAndRevokeColumns<T extends Credential & { status: CredentialStatus }>(
  meId: string,
  pending: boolean,
  revoke: (t: T) => void,
): ColumnDef<T>[] {
  return [
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
