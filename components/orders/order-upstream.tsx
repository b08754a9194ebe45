"use client";
import { EnumBadge } from "@/components/ui/enum-badge";
import { readAt, UpstreamPanel, type LiveRead } from "@/components/ui/upstream-panel";
import { formatDateTime } from "@/lib/format";
import { ORDER_STATUS_LABELS, ORDER_STATUS_TONES } from "./order-labels";
import { Fields } from "@/components/ui/detail-fields";

interface Live extends LiveRead {
  order?: { status: string; placed_at?: string; filled_at?: string; [k: string]: unknown };
  deprecated: { place_time?: string; fill_time?: string; place_time_at?: string; filled_time_at?: string };
}

const epoch = (ms?: string) => (ms && /^\d+$/.test(ms) ? `${ms} (${formatDateTime(new Date(Number(ms)))})` : (ms ?? null));

/**
 * The order as the upstream has it now, with the deprecated epoch-ms `place_time` / `fill_time` beside the current
 * `_at` fields. The desk's records take what it says like the consumer's own detail calls.
 */
export function OrderUpstreamPanel({ id }: { id: string }) {
  return (
    <UpstreamPanel<Live> url={`/api/orders/${id}/upstream`}>
      {(live) => (
        <Fields
          items={[
            ["Read at", readAt(live)],
            [
              "Status now",
              live.order ? <EnumBadge key="s" value={live.order.status} tones={ORDER_STATUS_TONES} labels={ORDER_STATUS_LABELS} /> : null,
            ],
            ["place_time_at", live.deprecated.place_time_at ?? null],
            ["place_time (deprecated)", epoch(live.deprecated.place_time)],
            ["filled_time_at", live.deprecated.filled_time_at ?? null],
            ["fill_time (deprecated)", epoch(live.deprecated.fill_time)],
          ]}
        />
      )}
    </UpstreamPanel>
  );
}
