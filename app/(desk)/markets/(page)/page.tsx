import type { Metadata } from "next";
import { ScreenersView } from "@/components/markets/screeners-view";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Markets" };

/** The screeners: each panel reads its own ranking (GET /api/markets/{screener}), shared by every viewer for 30 s. */
export default async function MarketsPage() {
  await requirePermission("market:read");
  return (
    <>
      <PageHeader
        title="Markets"
        description="The market's screeners from the Market Data API: movers, activity, sectors, dividends and 52-week ranges. Rankings refresh every 30 s; a symbol opens its instrument page."
      />
      <ScreenersView />
    </>
  );
}
