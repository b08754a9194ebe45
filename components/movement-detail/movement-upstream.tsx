"use client";
import { useQueryClient } from "@tanstack/react-query";
import { movementKeys, movementUrls } from "@/components/movement-list/query-keys";
import { readAt, UpstreamPanel } from "@/components/ui/upstream-panel";
import type { MovementUpstream } from "@/lib/schemas/movement-detail";
import { Fields } from "@/components/ui/detail-fields";
import { StatusBadge } from "./movement-panels";

const APPLIED: Record<MovementUpstream["applied"], string> = {
  same: "the desk's records agree",
  enriched: "the desk's records were completed",
  diverged: "the desk's records were corrected",
  stale: "an event changed it meanwhile; nothing applied",
};

/** The movement as the upstream has it now; the desk's records take what it says as the consumer's reconciliation does. */
export function MovementUpstreamPanel({ kind, clientRequestId }: { kind: string; clientRequestId: string }) {
  const queryClient = useQueryClient();
  return (
    <UpstreamPanel<MovementUpstream>
      url={movementUrls.upstream(kind, clientRequestId)}
      onRead={() => void queryClient.invalidateQueries({ queryKey: movementKeys.detail(kind, clientRequestId) })}
    >
      {(live) => (
        <Fields
          items={[
            ["Read at", readAt(live)],
            ["Status now", live.status ? <StatusBadge key="s" status={live.status} /> : null],
            ["Reason", live.reason ?? null],
            ["Applied", APPLIED[live.applied]],
          ]}
        />
      )}
    </UpstreamPanel>
  );
}
