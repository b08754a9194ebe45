"use client";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";

/** What a detail route's `…/upstream` answers: the live read, when and with which request id, and the raw body. */
export interface LiveRead {
  fetchedAt: string;
  requestId?: string;
  raw: unknown;
}

/** "Read at …, request …": the first line of every live read. */
export const readAt = (live: LiveRead) => `${formatDateTime(live.fetchedAt)}${live.requestId ? ` · request ${live.requestId}` : ""}`;

/**
 * "Refresh from upstream": one live detail call (a GET, a read), on click only, for a record the page shows from the
 * desk's own books. Shows what `children` makes of the answer and the raw answer behind a toggle.
 */
export function UpstreamPanel<T extends LiveRead>({
  url,
  onRead,
  children,
}: {
  url: string;
  onRead?: (live: T) => void;
  children: (live: T) => ReactNode;
}) {
  const refresh = useMutation({ mutationFn: () => fetchJson<T>(url), onSuccess: onRead });
  const live = refresh.data;
  return (
    <Panel
      title="Upstream"
      actions={
        <Button size="sm" variant="secondary" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {refresh.isPending ? "Reading…" : "Refresh from upstream"}
        </Button>
      }
    >
      {refresh.error ? (
        <p role="alert" className="text-sm text-red-800">
          {refresh.error.message}
        </p>
      ) : null}
      {live ? (
        <div className="flex flex-col gap-2" data-testid="upstream-live">
          {children(live)}
          <details>
            <summary className="cursor-pointer text-xs text-blue-700">Raw upstream JSON</summary>
            <pre className="mt-1 max-h-96 overflow-auto rounded bg-slate-50 p-2 text-[11px]" data-testid="upstream-raw">
              {JSON.stringify(live.raw, null, 2)}
            </pre>
          </details>
        </div>
      ) : !refresh.error ? (
        <p className="text-xs text-slate-500">What the broker says now, read on request (the page shows the desk&apos;s records).</p>
      ) : null}
    </Panel>
  );
}
