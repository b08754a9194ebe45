export default function Loading() {
  return (
    <div aria-busy className="animate-pulse space-y-3" data-testid="jobs-loading">
      <div className="h-6 w-48 rounded bg-slate-200" />
      <div className="h-8 w-full max-w-3xl rounded bg-slate-100" />
      <div className="h-48 rounded border border-slate-200 bg-white" />
      <div className="h-96 rounded border border-slate-200 bg-white" />
    </div>
  );
}
