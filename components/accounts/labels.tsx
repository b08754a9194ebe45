import type { Tone } from "@/components/ui/badge";
import { EnumBadge } from "@/components/ui/enum-badge";
import { enumLabel } from "@/lib/enums";
import { ACCOUNT_STATUSES, PERMISSION_LABELS } from "@/lib/schemas/virtual-account";

/** Status colours: green trades, blue is not yet open, amber is limited, red is frozen, grey is gone. */
const STATUS_TONE: Record<(typeof ACCOUNT_STATUSES)[number], Tone> = {
  ACTIVE: "green",
  CREATED: "blue",
  RESTRICTED: "amber",
  SUSPENDED: "amber",
  FROZEN: "red",
  CLOSED: "slate",
};

export function StatusBadge({ status }: { status?: string }) {
  return <EnumBadge value={status} tones={STATUS_TONE} />;
}

export function permissionLabel(p: string): string {
  return enumLabel(PERMISSION_LABELS, p);
}

export function PermissionList({ permissions }: { permissions: string[] }) {
  if (!permissions.length) return <span className="text-slate-400">—</span>;
  return (
    <span className="flex gap-1">
      {permissions.map((p) => (
        <span key={p} className="rounded bg-slate-100 px-1 py-px text-[11px] whitespace-nowrap text-slate-700" title={p}>
          {permissionLabel(p)}
        </span>
      ))}
    </span>
  );
}
