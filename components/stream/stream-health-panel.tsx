"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { runProgress, STREAM_STATE_LABELS, type StreamHealth, type StreamState, type SyncRunView } from "@/lib/stream-health";
import { requestReconciliation, requestStreamReconnect } from "@/server/actions/stream";
import { EventsChart } from "./events-chart";

const STATE_TONE: Record<StreamState, Tone> = { connected: "green", silent: "amber", down: "red", "no-consumer": "red" };
const when = (iso?: string) => (iso ? formatDateTime(iso) : "—");
const ms = (n?: number) => (n === undefined ? "—" : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`);

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-slate-500">{k}</dt>
          {/* Wrapped, never cut: an error's text or the consumer's name is read whole. */}
          <dd className="min-w-0 text-slate-900 tabular-nums [overflow-wrap:anywhere]">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function RunFacts({ run, progress }: { run?: SyncRunView; progress?: boolean }) {
  if (!run) return <p className="text-sm text-slate-500">Not run yet.</p>;
  const pct = run.total ? Math.min(100, Math.round((run.done / run.total) * 100)) : undefined;
  return (
    <div className="space-y-2">
      {progress && run.status === "running" ? (
        <div>
          <div
            className="h-2 w-full overflow-hidden rounded bg-slate-100"
            role="progressbar"
            aria-valuenow={pct ?? run.done}
            aria-valuemin={0}
            aria-valuemax={run.total ?? undefined}
          >
            <div className="h-full bg-blue-600 transition-all" style={{ width: `${pct ?? 5}%` }} />
          </div>
        </div>
      ) : null}
      <Facts
        rows={[
          [
            "Status",
            <Badge key="s" tone={run.status === "done" ? "green" : run.status === "running" ? "blue" : "red"}>
              {run.status}
            </Badge>,
          ],
          ["Progress", runProgress(run)],
          [
            "Checked · fixed · errors",
            `${run.checked.toLocaleString("en-GB")} · ${run.fixed.toLocaleString("en-GB")} · ${run.errors.toLocaleString("en-GB")}`,
          ],
          ["Started", when(run.startedAt)],
          ["Finished", when(run.finishedAt)],
          ...(run.requestedBy ? [["Requested by", run.requestedBy] as [string, ReactNode]] : []),
          ...(run.lastError ? [["Last error", run.lastError] as [string, ReactNode]] : []),
        ]}
      />
    </div>
  );
}

export function StreamHealthPanel({ initial, canManage }: { initial: StreamHealth; canManage: boolean }) {
  const {
    data = initial,
    isError,
    refetch,
  } = useQuery({
    queryKey: ["stream-health"],
    queryFn: () => fetchJson<StreamHealth>("/api/events/health"),
    initialData: initial,
    refetchInterval: 5_000,
  });
  const { run, busy, banner } = useAction();
  /** Asks for a consumer task, says what happens next, and reads the health again. */
  const request = (task: typeof requestStreamReconnect, success: string) =>
    run(() => task({}), { success, onSuccess: () => void refetch() });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <span data-testid="stream-state" data-state={data.state} className="text-base">
          <Badge tone={STATE_TONE[data.state]}>{STREAM_STATE_LABELS[data.state]}</Badge>
        </span>
        <span className="text-sm text-slate-600">
          {data.since ? `since ${when(data.since)}` : null} · checked {when(data.checkedAt)}
          {isError ? <span className="ml-2 text-red-700">(could not refresh; showing the last answer)</span> : null}
        </span>
        {canManage ? (
          <span className="ml-auto flex gap-2">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => request(requestStreamReconnect, "Reconnect requested: the consumer resubscribes from its resume point.")}
            >
              Reconnect now
            </Button>
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => request(requestReconciliation, "Reconciliation requested: it runs within the upstream's rate limits.")}
            >
              Run reconciliation
            </Button>
          </span>
        ) : null}
      </div>
      <FormBanner banner={banner} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel title="Stream">
          <Facts
            rows={[
              ["Consumer", data.leader ? `${data.leader} (heartbeat ${when(data.heartbeatAt)})` : "none has run"],
              [data.connected ? "Connected since" : "Down since", when(data.connected ? data.connectedAt : data.disconnectedAt)],
              ["Last event", data.lastEventId ? `#${data.lastEventId}${data.lastEventAt ? ` at ${when(data.lastEventAt)}` : ""}` : "—"],
              ["Last received", when(data.lastReceivedAt)],
              ["Last ping", when(data.lastPingAt)],
              ["Lag (5 min) p50 · p99", `${ms(data.lagP50Ms)} · ${ms(data.lagP99Ms)}`],
              ["Reconnects", data.reconnects.toLocaleString("en-GB")],
              [
                "Unknown · malformed events",
                `${data.unknownCount.toLocaleString("en-GB")} · ${data.malformedCount.toLocaleString("en-GB")}`,
              ],
              ["Last error", data.lastError ?? "—"],
            ]}
          />
        </Panel>
        <Panel title="Events per minute (last hour)">
          <EventsChart points={data.eventsPerMinute} />
        </Panel>
        <Panel title="Backfill">
          <RunFacts run={data.backfill} progress />
        </Panel>
        <Panel title="Last reconciliation">
          <RunFacts run={data.reconciliation} progress />
        </Panel>
      </div>
    </div>
  );
}
