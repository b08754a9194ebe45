"use client";
import { useMutation } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES } from "./order-labels";
import { Fields } from "./order-panels";

interface Live {
  fetchedAt: string;
  requestId?: string;
  order?: { status: string; placed_at?: string; filled_at?: string; [k: string]: unknown };
  deprecated: { place_time?: string; fill_time?: string; place_time_at?: string; filled_time_at?: string };
  raw: unknown;
}

const epoch = (ms?: string) => (ms && /^\d+$/.test(ms) ? `${ms} (${formatDateTime(new Date(Number(ms)))})` : (ms ?? null));

/**
 * "Refresh from upstream": one live detail call, on click only. Shows the order as the upstream has it now, the
 * deprecated epoch-ms `place_time` / `fill_time` beside the current `_at` fields, and the raw answer behind a toggle.
 * A GET (a read), not an action: the desk's records take what it says like the consumer's own detail calls.
 */
export function UpstreamPanel({ id }: { id: string }) {
  const refresh = useMutation({ mutationFn: () => fetchJson<Live>(`/api/orders/${id}/upstream`) });
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
          <Fields
            items={[
              ["Read at", `${formatDateTime(live.fetchedAt)}${live.requestId ? ` · request ${live.requestId}` : ""}`],
              ["Status now", live.order ? <EnumBadge key="s" value={live.order.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} /> : null],
              ["place_time_at", live.deprecated.place_time_at ?? null],
              ["place_time (deprecated)", epoch(live.deprecated.place_time)],
              ["filled_time_at", live.deprecated.filled_time_at ?? null],
              ["fill_time (deprecated)", epoch(live.deprecated.fill_time)],
            ]}
          />
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
