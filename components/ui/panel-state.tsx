"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { FetchError } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";

/**
 * A panel that fetches on its own, with its own loading and error states: a failed call shows in that panel, with
 * a Retry, while the other panels of the page carry on. Takes any TanStack Query result.
 */
export function DetailPanel<T>({
  title,
  testId,
  query,
  children,
  actions,
}: {
  title: string;
  testId: string;
  query: Pick<UseQueryResult<T>, "data" | "error" | "isPending" | "isError" | "isFetching" | "refetch">;
  children: (data: T) => ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="rounded border border-slate-200 bg-white" aria-label={title} data-testid={testId}>
      <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
        <div className="flex items-center gap-2">
          {query.isFetching && !query.isPending ? <span className="text-xs text-slate-400">Refreshing…</span> : null}
          {actions}
        </div>
      </header>
      <div className="p-3">
        {query.isError ? (
          <PanelError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        ) : query.isPending ? (
          <div aria-busy className="space-y-2" data-testid={`${testId}-loading`}>
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-4 animate-pulse rounded bg-slate-100" />
            ))}
          </div>
        ) : (
          children(query.data as T)
        )}
      </div>
    </section>
  );
}

function PanelError({ error, onRetry, retrying }: { error: unknown; onRetry: () => void; retrying: boolean }) {
  const e = error as FetchError | Error | undefined;
  const requestId = e instanceof FetchError ? e.requestId : undefined;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <span>
        {e?.message ?? "This part could not be loaded."}
        {requestId ? <span className="ml-1 font-mono text-[11px] text-red-600">(request {requestId})</span> : null}
      </span>
      <Button variant="secondary" size="sm" onClick={onRetry} disabled={retrying}>
        {retrying ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}
