import type { Metadata } from "next";
import { RulesEditor } from "@/components/approvals/rules-editor";
import { PageHeader } from "@/components/ui/page";
import { listRules } from "@/server/approvals/queries/rules";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { approverRoleOptions } from "@/server/roles/roles";

export const metadata: Metadata = { title: "Approval rules" };

export default async function ApprovalRulesPage() {
  await requirePermission("approvals:rules");
  const db = await getDb();
  const [rules, approverRoles] = await Promise.all([listRules(db.engine), approverRoleOptions(db)]);
  return (
    <>
      <PageHeader title="Approval rules" description="Which actions, above which amounts, wait for whose approval before they are sent." />
      <RulesEditor rules={rules} approverRoles={approverRoles} />
    </>
  );
}
