import type { Metadata } from "next";
import { RulesEditor } from "@/components/approvals/rules-editor";
import { PageHeader } from "@/components/ui/page";
import { listRules } from "@/server/approvals/queries/rules";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Approval rules" };

export default async function ApprovalRulesPage() {
  await requirePermission("approvals:rules");
  const rules = await listRules((await getDb()).engine);
  return (
    <>
      <PageHeader title="Approval rules" description="Which actions, above which amounts, wait for whose approval before they are sent." />
      <RulesEditor rules={rules} />
    </>
  );
}
