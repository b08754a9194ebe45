"use client";
import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatDate, formatDateTime } from "@/lib/format";
import type { CredentialRow, TokenStatus } from "@/lib/schemas/token-list";

/**
 * The columns that access tokens and the command line's access keys share: whose it is, its name, scopes and
 * days (the moment on hover), when it was last used, its status, and Revoke (confirmed first by the caller's
 * `revoke`).
 */
export type Credential = CredentialRow & { status: CredentialStatus };

type CredentialStatus = TokenStatus;

const STATUS: Record<CredentialStatus, { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "slate" },
  revoked: { label: "Revoked", tone: "red" },
};

const dim = "text-xs whitespace-nowrap text-slate-600";

/** A column of a credential: its `header` is also its label in the column menu; `cell` draws a row's. */
export function credentialColumn<T>(id: string, header: string, cell: (row: T) => ReactNode, className?: string): ColumnDef<T> {
  return { id, header, meta: { label: header, className }, cell: ({ row: { original } }) => cell(original) };
}

/** A day column (the moment on hover). */
export function dayColumn<T>(id: string, header: string, value: (row: T) => string): ColumnDef<T> {
  return credentialColumn(id, header, (row) => <span title={formatDateTime(value(row))}>{formatDate(value(row))}</span>, dim);
}

const owner = (t: Credential) => (
  <span className="flex flex-col">
    <span>{t.owner.name}</span>
    <span className="font-mono text-xs text-slate-500">{t.owner.email}</span>
  </span>
);

const scopes = (t: Credential) => (
  <span className="flex gap-1">
    {t.scopes.map((s) => (
      <Badge key={s} tone={s === "write" ? "amber" : "blue"}>
        {s}
      </Badge>
    ))}
  </span>
);

const lastUsed = (t: Credential) => (
  <span title={t.lastUsedIp ? `from ${t.lastUsedIp}` : undefined}>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : "Never"}</span>
);

const status = (t: Credential) => (
  <span title={t.revokedAt ? `Revoked ${formatDateTime(t.revokedAt)}${t.revokedByEmail ? ` by ${t.revokedByEmail}` : ""}` : undefined}>
    <Badge tone={STATUS[t.status].tone}>{STATUS[t.status].label}</Badge>
  </span>
);

/**
 * The owner (on the list of everyone's), the name, the kind's `identifier` (a token's prefix, a key's id), the
 * scopes, the day it was made and the kind's other `days`, when it was last used (from where, on hover), its status
 * (who revoked it and when, on hover), and Revoke while it is active.
 */
export function credentialColumns<T extends Credential>(o: {
  everyone: boolean;
  identifier: ColumnDef<T>;
  days?: ColumnDef<T>[];
  meId: string;
  pending: boolean;
  revoke: (t: T) => void;
}): ColumnDef<T>[] {
  return [
    ...(o.everyone ? [credentialColumn<T>("owner", "Owner", owner)] : []),
    { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name", className: "max-w-64 truncate" } },
    o.identifier,
    credentialColumn<T>("scopes", "Scopes", scopes),
    dayColumn<T>("created", "Created", (t) => t.createdAt),
    ...(o.days ?? []),
    credentialColumn<T>("last_used", "Last used", lastUsed, dim),
    credentialColumn<T>("status", "Status", status),
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
