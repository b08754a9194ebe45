/**
 * The desk's loading state of a page that reads data (each segment's loading.tsx): the header, the filter bar and
 * the table as grey blocks, so the page does not jump when it arrives.
 */
export function PageLoading() {
  return (
    <div aria-busy role="status" className="animate-pulse space-y-3" data-testid="page-loading">
      <span className="sr-only">Loading…</span>
      <div className="h-6 w-48 rounded bg-slate-200" />
      <div className="h-8 w-full max-w-3xl rounded bg-slate-100" />
      <div className="h-96 rounded border border-slate-200 bg-white" />
    </div>
  );
}
