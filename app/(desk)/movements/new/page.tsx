import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page";
import { MOVEMENT_KIND_LABELS } from "@/lib/schemas/movements";

export const metadata: Metadata = { title: "New money movement" };

const CHOICES = [
  {
    href: "cash-journal",
    title: MOVEMENT_KIND_LABELS.CASH_JOURNAL,
    text: "Cash between the master account and a virtual account, or between two virtual accounts.",
  },
  {
    href: "position-journal",
    title: MOVEMENT_KIND_LABELS.POSITION_JOURNAL,
    text: "Stock or option contracts (by OCC symbol) between two virtual accounts.",
  },
  {
    href: "instant-funding",
    title: "Deposit or withdrawal",
    text: "Instant funding of a virtual account; a withdrawal up to its withdrawable cash.",
  },
  { href: "fx-request", title: MOVEMENT_KIND_LABELS.FX_EXCHANGE, text: "Convert currency at the omnibus master account, at a live quote." },
  {
    href: "instant-exchange",
    title: MOVEMENT_KIND_LABELS.INSTANT_EXCHANGE,
    text: "Convert currency at a virtual account for the amount the live quote gives.",
  },
] as const;

/** The chooser: one link a kind (keyboard reachable), keeping `?from=&to=&account=` for the form. */
export default async function NewMovementPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const keep = new URLSearchParams();
  for (const name of ["from", "to", "account"]) {
    const v = params[name];
    if (typeof v === "string" && v) keep.set(name, v);
  }
  const query = keep.size ? `?${keep}` : "";
  return (
    <>
      <PageHeader title="New money movement" description="Choose what to move. Each form shows what will be sent before it is sent." />
      <nav aria-label="Kinds of movement">
        <ul className="grid max-w-5xl gap-3 md:grid-cols-2 xl:grid-cols-3">
          {CHOICES.map((c) => (
            <li key={c.href}>
              <Link
                href={`/movements/new/${c.href}${query}`}
                className="flex h-full flex-col gap-1 rounded border border-slate-200 bg-white p-3 hover:border-blue-400 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <span className="text-sm font-semibold text-blue-800">{c.title}</span>
                <span className="text-sm text-slate-600">{c.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-4 text-sm text-slate-600">
        Many journals at once?{" "}
        <Link href="/movements/bulk" className="text-blue-700 hover:underline">
          Upload a CSV of cash or position journals
        </Link>
        , approved as one batch.
      </p>
    </>
  );
}
