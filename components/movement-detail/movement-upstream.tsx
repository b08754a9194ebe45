"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { movementKeys, movementUrls } from "@/components/movement-list/query-keys";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import type { MovementUpstream } from "@/lib/schemas/movement-detail";
import { Fields, StatusBadge } from "./movement-panels";

const APPLIED: Record<MovementUpstream["applied"], string> = {
  same: "the desk's records agree",
  enriched: "the desk's records were completed",
  diverged: "the desk's records were corrected",
  stale: "an event changed it meanwhile; nothing applied",
};

/**
 * "Refresh from upstream": one live detail call, on click only. Shows the movement as the upstream has it now and
 * the raw answer behind a toggle; the desk's records take what it says as the consumer's reconciliation does.
 */
export function MovementUpstreamPanel({ kind, clientRequestId }: { kind: string; clientRequestId: string }) {
  const queryClient = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => fetchJson<MovementUpstream>(movementUrls.upstream(kind, clientRequestId)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: movementKeys.detail(kind, clientRequestId) }),
  });
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
              ["Status now", live.status ? <StatusBadge key="s" status={live.status} /> : null],
              ["Reason", live.reason ?? null],
              ["Applied", APPLIED[live.applied]],
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
