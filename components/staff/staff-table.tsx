"use client";
import { useQueryClient } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { CursorPagination } from "@/components/data-table/data-table-controls";
import { useListing } from "@/components/data-table/use-data-table";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import type { RoleOption } from "@/lib/schemas/roles";
import type { ActionResult } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { resetStaffTwoFactor, setStaffDisabled, setStaffRole, unlockStaff } from "@/server/actions/staff";
import { staffListParams, type StaffRow } from "@/lib/schemas/staff-list";
import { staffList } from "./query-keys";

type Run = (task: () => Promise<ActionResult<unknown>>, success: string, confirmText?: string) => void;

/** The columns, with the row actions of the signed-in admin (never on their own row: no self-demotion). */
function staffColumns(meId: string, roles: RoleOption[], pending: boolean, run: Run): ColumnDef<StaffRow>[] {
  const labelOf = (r: string) => roles.find((o) => o.value === r)?.label ?? r;
  return [
    { id: "name", accessorKey: "name", header: "Name", meta: { label: "Name" } },
    { id: "email", accessorKey: "email", header: "Email", meta: { label: "Email", className: "font-mono text-xs" } },
    {
      id: "role",
      accessorKey: "role",
      header: "Role",
      meta: { label: "Role" },
      cell: ({ row: { original: u } }) => (
        <Select
          aria-label={`Role of ${u.email}`}
          value={u.role}
          disabled={u.id === meId || pending}
          className="h-7 w-36"
          onChange={(e) => {
            const role = e.target.value;
            run(
              () => setStaffRole({ userId: u.id, role }),
              `${u.email} is now ${labelOf(role)}.`,
              `Change the role of ${u.email} from ${u.roleLabel} to ${labelOf(role)}? What they may see and do changes at once.`,
            );
          }}
        >
          {roles.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      ),
    },
    {
      id: "status",
      header: "Status",
      meta: { label: "Status" },
      cell: ({ row: { original: u } }) => (
        <span className="flex flex-col items-start gap-1">
          {u.disabled ? <Badge tone="slate">Disabled</Badge> : <Badge tone="green">Active</Badge>}
          {u.locked ? <Badge tone="red">Locked</Badge> : null}
          {u.twoFactor ? <Badge tone="blue">Two-factor</Badge> : null}
        </span>
      ),
    },
    {
      id: "last_sign_in",
      header: "Last sign-in",
      meta: { label: "Last sign-in", className: "text-xs whitespace-nowrap text-slate-600" },
      cell: ({ row: { original: u } }) => (u.lastSignInAt ? formatDateTime(u.lastSignInAt) : "Never"),
    },
    {
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "text-right whitespace-nowrap" },
      cell: ({ row: { original: u } }) => (
        // One above the other: a row's actions keep the table within a 1280-pixel screen.
        <span className="inline-flex flex-col items-end gap-1">
          {rowActions(u, meId).map((a) => (
            <Button key={a.label} size="sm" variant="secondary" disabled={pending} onClick={() => run(a.act, a.done, a.confirm)}>
              {a.label}
            </Button>
          ))}
        </span>
      ),
    },
  ];
}

/** A row's actions on a person's access, those that apply to them: the call, what is said once done, the question first. */
function rowActions(
  u: StaffRow,
  meId: string,
): { label: string; act: () => Promise<ActionResult<unknown>>; done: string; confirm?: string }[] {
  const self = u.id === meId;
  return [
    ...(u.locked ? [{ label: "Unlock", act: () => unlockStaff({ userId: u.id }), done: `${u.email} is unlocked.` }] : []),
    ...(u.twoFactor && !self
      ? [
          {
            label: "Reset 2FA",
            act: () => resetStaffTwoFactor({ userId: u.id }),
            done: `${u.email}'s authenticator is removed and their sessions ended: they sign in with their password and enrol again.`,
            confirm: `Reset ${u.email}'s two-factor sign-in? Their authenticator stops working and their desk and command-line sessions end; they sign in with their password and set up a new one.`,
          },
        ]
      : []),
    ...(self
      ? []
      : [
          {
            label: u.disabled ? "Enable" : "Disable",
            act: () => setStaffDisabled({ userId: u.id, disabled: !u.disabled }),
            done: `${u.email} is ${u.disabled ? "enabled" : "disabled"}.`,
            confirm: u.disabled ? undefined : `Disable ${u.email}? They will be signed out and unable to sign in.`,
          },
        ]),
  ];
}

/**
 * Staff users: URL state → one keyset page through /api/staff, prefetched by the page; a change to anyone's access
 * (here, in another tab, by another admin: each an audit entry with the `staff` notice) refetches it.
 */
export function StaffTable({ meId, roles }: { meId: string; roles: RoleOption[] }) {
  const { run: runAction, busy: pending, banner } = useAction();
  const queryClient = useQueryClient();
  const columns = useMemo(() => {
    // Every change to a person's access is confirmed first, naming what changes.
    const run: Run = (task, success, confirmText) => {
      if (confirmText && !window.confirm(confirmText)) return;
      // The list reads again at once (the live notice does too, for everyone else's open lists).
      void runAction(task, { success, onSuccess: () => queryClient.invalidateQueries({ queryKey: ["staff"] }) });
    };
    return staffColumns(meId, roles, pending, run);
  }, [meId, roles, pending, runAction, queryClient]);
  const { query, table, pagination, busy } = useListing(staffListParams, staffList, { columns, getRowId: (u: StaffRow) => u.id });

  return (
    <div className="flex flex-col gap-2">
      <FormBanner banner={banner} />
      <DataTable table={table} query={query} busy={busy || pending} empty="No staff users yet." rowTestId={(u) => `staff-row-${u.email}`} />
      <CursorPagination {...pagination} />
    </div>
  );
}
