import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { DeskView } from "@/components/instruments/desk-view";
import { InstrumentTabs } from "@/components/instruments/instrument-tabs";
import { InstrumentView } from "@/components/market/instrument-view";
import { LinkButton } from "@/components/ui/button";
import { can } from "@/lib/auth/permissions";
import { ticketHref } from "@/lib/schemas/order-ticket";
import { instrumentMaster, summarise } from "@/server/fundamentals/instrument-master";
import { cachedBars, marketData } from "@/server/market";
import { findInstrument, type InstrumentParams } from "./lookup";

export async function generateMetadata({ params }: { params: Promise<InstrumentParams> }): Promise<Metadata> {
  const { symbol } = await params;
  return { title: decodeURIComponent(symbol).toUpperCase() };
}

const DEFAULT_TIMESPAN = "M5";

/**
 * Thin page: permission, the quote (shared poller), the instrument master's record (its name, exchange and
 * currency; the quote alone shows when the master has none) and the first bars (cached reference data); the
 * client view keeps the quote, depth, ticks and footprint live over the tab's live channel. Below: the reference tabs
 * and the desk's own view of the symbol, each reading its routes.
 */
export default lookupPage(
  "market:read",
  ({ market, symbol }: InstrumentParams) => findInstrument(market, symbol),
  async (quote, { staff }) => {
    const [profile, bars] = await Promise.all([
      instrumentMaster()
        .get(quote.market, quote.symbol)
        .then(summarise, () => null),
      cachedBars(marketData(), quote.market, quote.symbol, DEFAULT_TIMESPAN).catch(() => undefined),
    ]);
    return (
      <>
        <InstrumentView
          quote={quote}
          profile={profile}
          bars={bars}
          timespan={DEFAULT_TIMESPAN}
          action={
            can(staff, "orders:place") ? (
              <LinkButton variant="secondary" href={ticketHref(quote.market, quote.symbol)}>
                New order
              </LinkButton>
            ) : null
          }
        />
        <section aria-label="Details" className="mt-4 flex flex-col gap-4">
          <InstrumentTabs market={quote.market} symbol={quote.symbol} />
          <DeskView market={quote.market} symbol={quote.symbol} />
        </section>
      </>
    );
  },
);
