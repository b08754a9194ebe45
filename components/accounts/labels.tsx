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

/**
 * What a status means for the person looking at the account (only ACTIVE accounts trade; which way money and
 * securities may move follows the upstream's rules as the sandbox implements them). ACTIVE has no entry.
 */
export const STATUS_CONSEQUENCES: Partial<Record<(typeof ACCOUNT_STATUSES)[number], string>> = {
  CREATED: "Not open yet: no trading. Money and securities may come in; nothing may leave.",
  SUSPENDED: "Suspended: no trading. Money and securities may come in; nothing may leave.",
  RESTRICTED: "Restricted: no trading. Money and securities may still move in and out.",
  FROZEN: "Frozen: no trading, and no money or securities move in or out.",
  CLOSED: "Closed, for good: no trading, and nothing moves in or out.",
};

/** The consequence of a status that is not ACTIVE, or undefined; the buying power shown cannot be used. */
export function statusConsequence(status: string | undefined): string | undefined {
  if (!status || status === "ACTIVE") return undefined;
  const known = STATUS_CONSEQUENCES[status as (typeof ACCOUNT_STATUSES)[number]];
  return `${known ?? `Status ${status}: not ACTIVE, so it may not trade.`} The buying power shown cannot be used.`;
}

export function StatusBadge({ status }: { status?: string }) {
  return <EnumBadge value={status} tones={STATUS_TONE} />;
}

/** "COMMISSION_GROUP_3" reads "Group 3" everywhere (list, detail, form); another upstream code shows as it is. */
export function commissionLabel(code: string | null | undefined): string {
  if (!code) return "—";
  const group = /^COMMISSION_GROUP_(\d+)$/.exec(code);
  return group ? `Group ${group[1]}` : code;
}

export function permissionLabel(p: string): string {
  return enumLabel(PERMISSION_LABELS, p);
}

export function PermissionList({ permissions }: { permissions: string[] }) {
  if (!permissions.length) return <span className="text-slate-400">—</span>;
  return (
    // Wraps past four short labels, so a wide grant does not push the table past the screen.
    <span className="flex max-w-56 flex-wrap gap-1">
      {permissions.map((p) => (
        <span key={p} className="rounded bg-slate-100 px-1 py-px text-[11px] whitespace-nowrap text-slate-700" title={p}>
          {permissionLabel(p)}
        </span>
      ))}
    </span>
  );
}
