"use client";
import Link from "next/link";
import { STREAM_STATE_LABELS, streamAlert } from "@/lib/stream-health";
import { formatDateTime } from "@/lib/format";
import { useLive } from "./live-provider";

/** Across the desk: the upstream event stream has been down or silent too long, so what pages show may be stale. */
export function StreamBanner({ alertAfterMs, canOpenHealth }: { alertAfterMs: number; canOpenHealth: boolean }) {
  const { status } = useLive();
  if (!status || !streamAlert(status, alertAfterMs)) return null;
  return (
    <div role="alert" data-testid="stream-banner" className="border-b border-amber-300 bg-amber-50 px-5 py-2 text-sm text-amber-900">
      <strong className="font-semibold">Upstream events: {STREAM_STATE_LABELS[status.state].toLowerCase()}</strong>
      {status.since ? <> since {formatDateTime(status.since)}</> : null}. Orders, movements and balances may be out of date until it
      recovers.
      {canOpenHealth ? (
        <>
          {" "}
          <Link href="/admin/stream" className="font-medium underline">
            Event stream
          </Link>
        </>
      ) : null}
    </div>
  );
}
