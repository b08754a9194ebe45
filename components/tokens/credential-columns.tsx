"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatDate, formatDateTime } from "@/lib/format";
import type { CredentialRow, TokenStatus } from "@/lib/schemas/token-list";

/**
 * The columns that access tokens and the command line's access keys share: whose it is, its scopes, its days (the
 * moment on hover), when it was last used, its status, and Revoke (confirmed first by the caller's `revoke`).
 */
export type Credential = CredentialRow & { status: CredentialStatus };

type CredentialStatus = TokenStatus;

const STATUS: Record<CredentialStatus, { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "slate" },
  revoked: { label: "Revoked", tone: "red" },
};

const dim = "text-xs whitespace-nowrap text-slate-600";

/** A day column (the moment on hover). */
export function dayColumn<T>(id: string, header: string, value: (row: T) => string): ColumnDef<T> {
  return {
    id,
    header,
    meta: { label: header, className: dim },
    cell: ({ row: { original } }) => <span title={formatDateTime(value(original))}>{formatDate(value(original))}</span>,
  };
}

function ownerColumn<T extends Credential>(): ColumnDef<T> {
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

/**
 * The owner (on the list of everyone's), the credential's own columns, when it was last used (from where, on
 * hover), its status (who revoked it and when, on hover), and Revoke while it is active.
 */
export function credentialColumns<T extends Credential>(o: {
  everyone: boolean;
  own: ColumnDef<T>[];
  meId: string;
  pending: boolean;
  revoke: (t: T) => void;
}): ColumnDef<T>[] {
  return [
    ...(o.everyone ? [ownerColumn<T>()] : []),
    ...o.own,
    {
      id: "last_used",
      header: "Last used",
      meta: { label: "Last used", className: dim },
      cell: ({ row: { original: t } }) => (
        <span title={t.lastUsedIp ? `from ${t.lastUsedIp}` : undefined}>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : "Never"}</span>
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
            disabled={o.pending}
            aria-label={`Revoke ${t.name}${t.owner.id === o.meId ? "" : ` of ${t.owner.email}`}`}
            onClick={() => o.revoke(t)}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];
}
