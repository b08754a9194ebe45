"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { fetchJson } from "@/components/data-table/fetch-json";
import type { NavBadge, NavBadgeId, NavItem } from "@/lib/navigation";
import { useReadAt } from "@/components/live/read-at";

/**
 * The menu. An item with a badge shows its count beside the link (not in it: the link's name stays the page's), read
 * from `/api/badges/{id}` under the live query root of the same name, so the change notices that refresh the page's
 * list refresh the count; the shell's render gives the first value.
 */
export function Sidebar({ items, counts = {} }: { items: NavItem[]; counts?: Partial<Record<NavBadgeId, number>> }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5 p-2 text-sm">
      {items.map((item, i) => {
        const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        const heading = item.section && item.section !== items[i - 1]?.section ? item.section : undefined;
        return (
          <div key={item.href}>
            {heading ? <p className="mt-3 mb-1 px-2 text-[11px] font-semibold tracking-wide text-slate-400 uppercase">{heading}</p> : null}
            {item.badge ? (
              <BadgedLink item={item} badge={item.badge} active={active} initial={counts[item.badge.id]} />
            ) : (
              <NavLink item={item} active={active} />
            )}
          </div>
        );
      })}
    </nav>
  );
}

function NavLink({ item, active, describedBy }: { item: NavItem; active: boolean; describedBy?: string }) {
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      aria-describedby={describedBy}
      className={`block rounded px-2 py-1.5 ${active ? "bg-slate-700 font-medium text-white" : "text-slate-300 hover:bg-slate-800 hover:text-white"}`}
    >
      {item.label}
    </Link>
  );
}

const BADGE_TONES: Record<NavBadge["tone"], string> = {
  amber: "bg-amber-400 text-slate-950",
  red: "bg-red-500 text-white",
};

function BadgedLink({ item, badge, active, initial }: { item: NavItem; badge: NavBadge; active: boolean; initial?: number }) {
  const readAt = useReadAt();
  const { data } = useQuery({
    queryKey: [badge.id, "badge"],
    queryFn: ({ signal }) => fetchJson<{ count: number }>(`/api/badges/${badge.id}`, signal),
    initialData: initial === undefined ? undefined : { count: initial },
    initialDataUpdatedAt: readAt,
  });
  const count = data?.count ?? 0;
  const id = `nav-badge-${badge.id}`;
  return (
    <div className="relative">
      <NavLink item={item} active={active} describedBy={count > 0 ? id : undefined} />
      {count > 0 ? (
        <span
          id={id}
          data-testid={id}
          data-count={count}
          title={`${count} ${badge.label}`}
          className={`pointer-events-none absolute top-1/2 right-1.5 min-w-5 -translate-y-1/2 rounded-full px-1.5 text-center text-[11px] leading-5 font-semibold tabular-nums ${BADGE_TONES[badge.tone]}`}
        >
          {count > 99 ? "99+" : count}
          <span className="sr-only"> {badge.label}</span>
        </span>
      ) : null}
    </div>
  );
}
