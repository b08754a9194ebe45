import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DeskView } from "@/components/instruments/desk-view";
import { InstrumentTabs } from "@/components/instruments/instrument-tabs";
import { PageHeader } from "@/components/ui/page";
import { instrumentPathIn } from "@/lib/schemas/instrument-tabs";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Instrument" };

/**
 * STAND-IN for the instrument page of branch md-desk-instrument (quote header, chart, tick tape, depth): on merge,
 * keep that page and render `<InstrumentTabs market symbol />` and `<DeskView market symbol />` in it; drop this file.
 */
export default async function InstrumentPage({ params }: { params: Promise<{ market: string; symbol: string }> }) {
  await requirePermission("market:read");
  const parsed = instrumentPathIn.safeParse(await params);
  if (!parsed.success) notFound();
  const { market, symbol } = parsed.data;
  return (
    <>
      <PageHeader title={`${symbol} · ${market}`} />
      <div className="flex flex-col gap-4">
        <InstrumentTabs market={market} symbol={symbol} />
        <DeskView market={market} symbol={symbol} />
      </div>
    </>
  );
}
