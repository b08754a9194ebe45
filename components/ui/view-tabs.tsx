import Link from "next/link";

/** Tabs between pages that show one thing for different people (one's own, everyone's), each page its own permission. */
export function ViewTabs<V extends string>({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: { view: V; href: string; label: string }[];
  current: V;
}) {
  return (
    <nav aria-label={label} className="mb-3 flex gap-1 border-b border-slate-200">
      {tabs.map((v) => (
        <Link
          key={v.view}
          href={v.href}
          aria-current={v.view === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${v.view === current ? "border-blue-700 font-medium text-blue-800" : "border-transparent text-slate-600 hover:text-slate-900"}`}
        >
          {v.label}
        </Link>
      ))}
    </nav>
  );
}
