/** The account page's loading state: its header and panels as grey blocks, announced as loading like every page's. */
export default function Loading() {
  return (
    <div aria-busy role="status" className="animate-pulse space-y-3" data-testid="page-loading">
      <span className="sr-only">Loading…</span>
      <div className="h-6 w-56 rounded bg-slate-200" />
      <div className="grid gap-3 2xl:grid-cols-2">
        <div className="h-64 rounded border border-slate-200 bg-white" />
        <div className="h-64 rounded border border-slate-200 bg-white" />
      </div>
      <div className="h-48 rounded border border-slate-200 bg-white" />
    </div>
  );
}
