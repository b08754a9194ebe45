"use client";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import type { DiffLine } from "@/lib/schemas/virtual-account-diff";

/**
 * The confirmation step of an update: every changed field, before → after, then Confirm or Back. It takes the focus
 * when it opens (the button that opened it is gone), so the keyboard and a screen reader land on the review.
 */
export function DiffConfirm({
  diff,
  busy,
  onConfirm,
  onCancel,
}: {
  diff: DiffLine[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <section
      ref={ref}
      tabIndex={-1}
      role="dialog"
      aria-modal="false"
      aria-labelledby="diff-title"
      className="rounded border border-amber-300 bg-amber-50 p-3 outline-none focus-visible:ring-2 focus-visible:ring-amber-500"
    >
      <h2 id="diff-title" className="text-sm font-semibold text-amber-900">
        Confirm {diff.length} {diff.length === 1 ? "change" : "changes"}
      </h2>
      <table className="mt-2 w-full max-w-3xl text-sm" data-testid="diff-table">
        <thead>
          <tr className="text-left text-xs text-slate-600">
            <th className="py-1 pr-3 font-semibold">Field</th>
            <th className="py-1 pr-3 font-semibold">Now</th>
            <th className="py-1 font-semibold">After the update</th>
          </tr>
        </thead>
        <tbody>
          {diff.map((d) => (
            <tr key={d.path} className="border-t border-amber-200">
              <td className="py-1 pr-3 font-medium">{d.label}</td>
              <td className="py-1 pr-3 text-slate-600 line-through decoration-slate-400">{d.before}</td>
              <td className="py-1 font-medium text-slate-900">{d.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-3 flex gap-2">
        <Button onClick={onConfirm} disabled={busy}>
          {busy ? "Updating…" : "Confirm update"}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Back to the form
        </Button>
      </div>
    </section>
  );
}
