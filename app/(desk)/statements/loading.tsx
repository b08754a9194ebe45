export default function Loading() {
  return (
    <div aria-busy className="animate-pulse space-y-3" data-testid="statements-loading">
      <div className="h-6 w-48 rounded bg-slate-200" />
      <div className="h-24 w-full max-w-3xl rounded border border-slate-200 bg-white" />
      <div className="h-64 rounded border border-slate-200 bg-white" />
    </div>
  );
}
