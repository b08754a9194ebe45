"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { FetchError } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";

/**
 * A panel that fetches on its own, with its own loading and error states: a failed call shows in that panel, with
 * a Retry, while the other panels of the page carry on. Takes any TanStack Query result. A paged one whose next page
 * failed ("Load more": `isFetchNextPageError`) keeps the rows it has: the panel's content says that failure beside
 * its "Load more" (`ReadError`), and its Retry reads that page alone.
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
  query: Pick<UseQueryResult<T>, "data" | "error" | "isPending" | "isError" | "isFetching" | "refetch"> & {
    isFetchNextPageError?: boolean;
  };
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
        {query.isError && !query.isFetchNextPageError ? (
          <ReadError error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
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

/**
 * A read that failed, said where its result would show, with a Retry: `what` could not be read (when given), then the
 * error's own message and the upstream's request id. `compact`: one small line as wide as its text, for a bar (a
 * listing's totals) or beside a button ("Load more").
 */
export function ReadError({
  what,
  error,
  onRetry,
  retrying = false,
  compact = false,
  testId,
}: {
  what?: string;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  compact?: boolean;
  testId?: string;
}) {
  const e = error as FetchError | Error | null | undefined;
  const requestId = e instanceof FetchError ? e.requestId : undefined;
  const message = e?.message || (what ? undefined : "This part could not be loaded.");
  return (
    <div
      role="alert"
      data-testid={testId}
      className={`flex flex-wrap items-center gap-2 rounded border border-red-200 bg-red-50 text-red-800 ${
        compact ? "w-fit px-2 py-0.5 text-xs" : "justify-between px-3 py-2 text-sm"
      }`}
    >
      <span>
        {what ? <span className="font-medium">{what}</span> : null}
        {what && message ? " " : null}
        {message}
        {requestId ? <span className="ml-1 font-mono text-[11px] text-red-600">(request {requestId})</span> : null}
      </span>
      <Button variant="secondary" size="sm" onClick={onRetry} disabled={retrying}>
        {retrying ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}

/** A read that failed, as a part of a page is told it (`failed` of the listings' totals): shown with `ReadError`. */
export interface FailedRead {
  error: unknown;
  retry: () => void;
  retrying: boolean;
}

/** A query's failure as a `FailedRead`; nothing while it has not failed. */
export function failedRead(query: Pick<UseQueryResult<unknown>, "isError" | "error" | "isFetching" | "refetch">): FailedRead | undefined {
  return query.isError ? { error: query.error, retry: () => void query.refetch(), retrying: query.isFetching } : undefined;
}

/** A listing's totals that could not be read: one compact line with Retry, in place of the totals bar. */
export function TotalsError({ failed, testId }: { failed: FailedRead; testId: string }) {
  return (
    <ReadError
      what="Totals could not be read."
      error={failed.error}
      onRetry={failed.retry}
      retrying={failed.retrying}
      compact
      testId={testId}
    />
  );
}
