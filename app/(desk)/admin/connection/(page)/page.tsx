import type { Metadata } from "next";
import { ConnectionPanel } from "@/components/connection/connection-panel";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { tokenStatus } from "@/server/broker";

export const metadata: Metadata = { title: "Connection" };
export const dynamic = "force-dynamic";

export default async function ConnectionPage() {
  await requirePermission("connection:manage");
  const status = await tokenStatus();
  return (
    <>
      <PageHeader title="Upstream connection" description="The Broker API this back office works against, and its access token." />
      <ConnectionPanel initial={status} />
    </>
  );
}
