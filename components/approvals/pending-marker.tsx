"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { fetchJson } from "@/components/data-table/fetch-json";
import { formatDateTime } from "@/lib/format";
import type { PendingMark, PendingMarksQuery } from "@/lib/schemas/approval-queue";
import { ruleActionLabel } from "@/lib/schemas/approvals";
import { pendingMarksResource } from "./query-keys";
import { useReadAt } from "@/components/live/read-at";

/**
 * "Pending approval" on the page of what a held request touches (an account, a movement), each request linked. Under
 * the `approvals` live root: it appears when a request is held and goes when it is decided, withdrawn or expires.
 */
export function PendingApprovalMarker({
  by,
  initial,
  className = "",
}: {
  by: PendingMarksQuery;
  initial?: PendingMark[];
  className?: string;
}) {
  const readAt = useReadAt();
  const { data } = useQuery({
    queryKey: pendingMarksResource.key(by),
    queryFn: ({ signal }) => fetchJson<{ rows: PendingMark[] }>(pendingMarksResource.url(by), signal),
    initialData: initial && { rows: initial },
    initialDataUpdatedAt: readAt,
  });
  const rows = data?.rows ?? [];
  if (!rows.length) return null;
  return (
    <div
      role="status"
      data-testid="pending-approval"
      className={`${className} rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950`}
    >
      <ul className="flex flex-col gap-1">
        {rows.map((r) => (
          <li key={r.id} data-testid="pending-approval-request" className="flex flex-wrap items-baseline gap-x-2">
            <span className="rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-950">Pending approval</span>
            <span>{r.summary}</span>
            <span className="text-xs text-amber-900">
              {ruleActionLabel(r.ruleAction)} · asked by {r.makerEmail} · {formatDateTime(r.createdAt)}
            </span>
            <Link href={`/approvals/${r.id}`} prefetch={false} className="font-medium text-blue-800 hover:underline">
              Open the request
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
