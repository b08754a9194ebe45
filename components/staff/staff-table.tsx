"use client";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Alert, Select } from "@/components/ui/field";
import { table } from "@/components/ui/page";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/auth/permissions";
import { actionMessage, type ActionResult } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { setStaffDisabled } from "@/server/actions/staff-set-disabled";
import { setStaffRole } from "@/server/actions/staff-set-role";
import { unlockStaff } from "@/server/actions/staff-unlock";

export interface StaffRow {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  locked: boolean;
  lastSignInAt: string | null;
}

export function StaffTable({ users, meId }: { users: StaffRow[]; meId: string }) {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();

  function run(task: () => Promise<ActionResult<unknown>>, success: string, confirmText?: string) {
    if (confirmText && !window.confirm(confirmText)) return;
    start(async () => {
      const result = await task();
      setMessage({ tone: result.ok ? "success" : "error", text: actionMessage(result, success) });
    });
  }

  return (
    <div className="flex flex-col gap-2">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <div className={table.wrap}>
        <table className={table.table} aria-busy={pending}>
          <thead>
            <tr>
              <th className={table.th}>Name</th>
              <th className={table.th}>Email</th>
              <th className={table.th}>Role</th>
              <th className={table.th}>Status</th>
              <th className={table.th}>Last sign-in</th>
              <th className={table.th}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => {
              const self = u.id === meId;
              return (
                <tr key={u.id} data-testid={`staff-row-${u.email}`}>
                  <td className={table.td}>{u.name}</td>
                  <td className={`${table.td} font-mono text-xs`}>{u.email}</td>
                  <td className={table.td}>
                    <Select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={self || pending}
                      className="h-7 w-36"
                      onChange={(e) =>
                        run(() => setStaffRole({ userId: u.id, role: e.target.value as Role }), `${u.email} is now ${ROLE_LABELS[e.target.value as Role]}.`)
                      }
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </Select>
                  </td>
                  <td className={table.td}>
                    <span className="flex gap-1">
                      {u.disabled ? <Badge tone="slate">Disabled</Badge> : <Badge tone="green">Active</Badge>}
                      {u.locked ? <Badge tone="red">Locked</Badge> : null}
                    </span>
                  </td>
                  <td className={`${table.td} text-xs whitespace-nowrap text-slate-600`}>{u.lastSignInAt ? formatDateTime(u.lastSignInAt) : "Never"}</td>
                  <td className={`${table.td} text-right whitespace-nowrap`}>
                    {u.locked ? (
                      <Button size="sm" variant="secondary" disabled={pending} onClick={() => run(() => unlockStaff({ userId: u.id }), `${u.email} is unlocked.`)}>
                        Unlock
                      </Button>
                    ) : null}{" "}
                    {self ? null : (
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={pending}
                        onClick={() =>
                          run(
                            () => setStaffDisabled({ userId: u.id, disabled: !u.disabled }),
                            `${u.email} is ${u.disabled ? "enabled" : "disabled"}.`,
                            u.disabled ? undefined : `Disable ${u.email}? They will be signed out and unable to sign in.`,
                          )
                        }
                      >
                        {u.disabled ? "Enable" : "Disable"}
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
