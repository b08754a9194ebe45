"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto mt-24 max-w-md text-center">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-sm text-slate-600">
        The page could not be shown. Nothing was changed.{error.digest ? ` Reference: ${error.digest}.` : ""}
      </p>
      <button type="button" onClick={reset} className="mt-4 rounded bg-blue-700 px-3 py-1.5 text-sm text-white hover:bg-blue-800">
        Try again
      </button>
    </main>
  );
}
