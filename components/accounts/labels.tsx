import { Badge, type Tone } from "@/components/ui/badge";
import { ACCOUNT_STATUSES, PERMISSION_LABELS, type TradingPermission } from "@/lib/schemas/virtual-account";

/** Status colours: green trades, blue is not yet open, amber is limited, red is frozen, grey is gone. */
const STATUS_TONE: Record<(typeof ACCOUNT_STATUSES)[number], Tone> = {
  ACTIVE: "green",
  CREATED: "blue",
  RESTRICTED: "amber",
  SUSPENDED: "amber",
  FROZEN: "red",
  CLOSED: "slate",
};

/** Unknown upstream values are shown raw, never a crash (STYLE practice 4). */
export function StatusBadge({ status }: { status?: string }) {
  if (!status) return <span className="text-slate-400">—</span>;
  const tone = STATUS_TONE[status as keyof typeof STATUS_TONE];
  return <Badge tone={tone ?? "slate"}>{tone ? status : `unknown (${status})`}</Badge>;
}

export function permissionLabel(p: string): string {
  return PERMISSION_LABELS[p as TradingPermission] ?? `unknown (${p})`;
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
