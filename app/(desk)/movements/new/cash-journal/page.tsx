import type { Metadata } from "next";
import { CashJournalForm } from "@/components/movement-forms/cash-journal-form";
import { MovementFormPage } from "@/components/movement-forms/movement-form-page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Cash journal" };

/** The cash journal form; `?from=&to=` open it on those accounts. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  await requirePermission("movements:write");
  const { accounts, problems } = await prefill(searchParams, ["from", "to"]);
  return (
    <MovementFormPage title="Cash journal" problems={problems}>
      <CashJournalForm from={accounts.from} to={accounts.to} />
    </MovementFormPage>
  );
}
