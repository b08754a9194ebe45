import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "./field";

/**
 * A page's title, its line beneath (or the way `back` to where it was opened from), its actions, and what the page
 * could not read (`problem`, the page still working without it).
 */
export function PageHeader({
  title,
  description,
  back,
  actions,
  problem,
}: {
  title: string;
  description?: ReactNode;
  /** `prefetch: false` when the page it leads to calls the upstream. */
  back?: { href: string; label: string; prefetch?: false };
  actions?: ReactNode;
  problem?: ReactNode;
}) {
  const line = back ? (
    <Link href={back.href} prefetch={back.prefetch} className="text-blue-700 hover:underline">
      ← {back.label}
    </Link>
  ) : (
    description
  );
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
          {line ? <p className="mt-0.5 text-sm text-slate-600">{line}</p> : null}
        </div>
        {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
      </div>
      {problem ? (
        <div className="mb-3">
          <Alert>{problem}</Alert>
        </div>
      ) : null}
    </>
  );
}

export function Panel({ title, actions, children }: { title?: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded border border-slate-200 bg-white" aria-label={title}>
      {title ? (
        <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
          <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
          {actions}
        </header>
      ) : null}
      <div className="p-3">{children}</div>
    </section>
  );
}

/** Dense table classes shared by every listing. */
export const table = {
  wrap: "overflow-x-auto rounded border border-slate-200 bg-white",
  table: "min-w-full text-sm",
  th: "border-b border-slate-200 bg-slate-50 px-3 py-1.5 text-left text-xs font-semibold text-slate-600 whitespace-nowrap",
  td: "border-b border-slate-100 px-3 py-1.5 align-middle",
  empty: "px-3 py-8 text-center text-sm text-slate-500",
};

/** The body of a route's not-found.tsx: what is missing, why, and the way back to its list. */
export function NotFoundNotice({ title, text, href, back }: { title: string; text: string; href: string; back: string }) {
  return (
    <div className="mx-auto mt-16 max-w-md text-center">
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="mt-1 text-lg font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <Link href={href} className="mt-4 inline-block text-sm text-blue-700 hover:underline">
        {back}
      </Link>
    </div>
  );
}
