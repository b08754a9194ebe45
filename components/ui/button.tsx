import Link from "next/link";
import type { ButtonHTMLAttributes, ReactNode } from "react";

const VARIANTS = {
  primary: "bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-300",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-400",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-300",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-400",
} as const;

type Look = { variant?: keyof typeof VARIANTS; size?: "sm" | "md" };

const look = ({ variant = "primary", size = "md" }: Look) =>
  `inline-flex items-center justify-center gap-1 rounded font-medium whitespace-nowrap disabled:cursor-not-allowed ${
    size === "sm" ? "h-7 px-2 text-xs" : "h-8 px-3 text-sm"
  } ${VARIANTS[variant]}`;

export function Button({ variant, size, className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & Look) {
  return <button type="button" className={`${look({ variant, size })} ${className}`} {...props} />;
}

/** A link that looks like a button: a page's way to another page ("Open account", "New order"); never prefetched. */
export function LinkButton({ href, children, ...l }: { href: string; children: ReactNode } & Look) {
  return (
    <Link href={href} prefetch={false} className={look(l)}>
      {children}
    </Link>
  );
}
