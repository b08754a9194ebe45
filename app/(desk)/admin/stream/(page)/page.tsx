import type { Metadata } from "next";
import { StreamHealthPanel } from "@/components/stream/stream-health-panel";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { env } from "@/lib/env";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { streamHealth } from "@/server/books/health";

export const metadata: Metadata = { title: "Event stream" };
export const dynamic = "force-dynamic";

export default async function StreamPage() {
  const staff = await requirePermission("stream:read");
  const db = await getDb();
  const health = await streamHealth(db.engine, env().EVENTS_SILENCE_MS);
  return (
    <>
      <PageHeader
        title="Upstream event stream"
        description="The upstream's events keep the desk's own records of orders and money movements current; backfill and reconciliation catch what they miss."
      />
      <StreamHealthPanel initial={health} canManage={can(staff, "stream:manage")} />
    </>
  );
}
