"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { movementKeys, movementUrls } from "@/components/movement-list/query-keys";
import type { MovementDetail } from "@/lib/schemas/movement-detail";
import { MovementFields, MovementSummary, MovementTimeline, OutcomePanel } from "./movement-panels";
import { MovementUpstreamPanel } from "./movement-upstream";
import { useReadAt } from "@/components/live/read-at";

/**
 * One movement from the desk's records, kept current by the live channel (its query key is under "movements").
 * Built from panels: `aside` takes more of them (rendered by the page, after the timeline) without touching this view.
 */
export function MovementDetailView({ initial, aside }: { initial: MovementDetail; aside?: ReactNode }) {
  const { kind, clientRequestId } = initial.movement;
  const readAt = useReadAt();
  const { data } = useQuery({
    queryKey: movementKeys.detail(kind, clientRequestId),
    queryFn: ({ signal }) => fetchJson<MovementDetail>(movementUrls.detail(kind, clientRequestId), signal),
    initialData: initial,
    initialDataUpdatedAt: readAt,
  });
  const { movement, timeline } = data;
  return (
    <div className="flex flex-col gap-3">
      <MovementSummary m={movement} />
      <OutcomePanel m={movement} />
      {/* Side by side from 1536 px; below, one column (account ids need the width). */}
      <div className="grid gap-3 2xl:grid-cols-[3fr_2fr]">
        <div className="flex min-w-0 flex-col gap-3">
          <MovementFields m={movement} />
        </div>
        <div className="flex min-w-0 flex-col gap-3">
          <MovementTimeline timeline={timeline} />
          {aside}
          <MovementUpstreamPanel kind={kind} clientRequestId={clientRequestId} />
        </div>
      </div>
    </div>
  );
}
