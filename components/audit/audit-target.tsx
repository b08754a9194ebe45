import Link from "next/link";

/**
 * The target, linked where the desk has a page for it: an account's detail, an approval request, an alert, an order's account
 * in the blotter. The audit trail records upstream ids; the account number shown is the one the desk has seen for
 * that id (`server/accounts/directory.ts`), else the id's end. A target the desk has no page for is shown whole,
 * wrapped at the column's width (cut off, its end was lost); the full value is in the tooltip as well. Where the
 * caller knows what the target is called (a held request's summary, a colleague's email), that name is shown instead.
 */
export function AuditTarget({ target, accountNumber, name }: { target: string | null; accountNumber?: string; name?: string }) {
  if (!target) return <>—</>;
  const [kind, first, second] = target.split(":");
  const href = !first
    ? undefined
    : kind === "account"
      ? `/accounts/${encodeURIComponent(first)}`
      : kind === "order"
        ? `/orders?account=${encodeURIComponent(first)}`
        : kind === "approval"
          ? `/approvals/${encodeURIComponent(first)}`
          : kind === "alert"
            ? `/alerts/${encodeURIComponent(first)}`
            : undefined;
  const label =
    kind === "account"
      ? "Account"
      : kind === "order"
        ? `Order ${second ?? ""}`
        : kind === "approval"
          ? "Approval"
          : kind === "alert"
            ? "Alert"
            : target;
  if (!href) {
    return (
      <span className="block [overflow-wrap:anywhere]" title={target}>
        {name ?? target}
      </span>
    );
  }
  if (name) {
    return (
      <Link href={href} prefetch={false} className="block text-blue-700 hover:underline" title={target} data-testid="audit-target">
        {name}
      </Link>
    );
  }
  return (
    <Link
      href={href}
      prefetch={false}
      className="block text-blue-700 [overflow-wrap:anywhere] hover:underline"
      title={target}
      data-testid="audit-target"
    >
      {label}{" "}
      <span className={accountNumber ? "font-mono" : "text-slate-500"}>
        {accountNumber ?? (first.length > 10 ? `…${first.slice(-6)}` : first)}
      </span>
    </Link>
  );
}
