"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { NavItem } from "@/lib/navigation";

export function Sidebar({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-0.5 p-2 text-sm">
      {items.map((item, i) => {
        const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
        const heading = item.section && item.section !== items[i - 1]?.section ? item.section : undefined;
        return (
          <div key={item.href}>
            {heading ? <p className="mt-3 mb-1 px-2 text-[11px] font-semibold tracking-wide text-slate-400 uppercase">{heading}</p> : null}
            <Link
              href={item.href}
              aria-current={active ? "page" : undefined}
              className={`block rounded px-2 py-1.5 ${active ? "bg-slate-700 font-medium text-white" : "text-slate-300 hover:bg-slate-800 hover:text-white"}`}
            >
              {item.label}
            </Link>
          </div>
        );
      })}
    </nav>
  );
}
