import type { Metadata } from "next";
import { rulesView, SurveillanceRules } from "@/components/alerts/surveillance-rules";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listRules } from "@/server/surveillance/queries/alerts";

export const metadata: Metadata = { title: "Surveillance rules" };

/** Thin page: permission, the rules, the URL's choice of form; the view is components/alerts/surveillance-rules.tsx. */
export default async function SurveillanceRulesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission("alerts:rules");
  const [search, rules] = await Promise.all([searchParams, getDb().then((db) => listRules(db.engine))]);
  return (
    <>
      <PageHeader
        title="Surveillance rules"
        description="What raises an alert in the compliance queue. A change applies to the movements and orders that arrive after it."
      />
      <SurveillanceRules rules={rules} {...rulesView(rules, search)} />
    </>
  );
}
