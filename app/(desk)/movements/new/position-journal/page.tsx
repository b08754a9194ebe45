import type { Metadata } from "next";
import { PositionJournalForm } from "@/components/movement-forms/position-journal-form";
import { MovementFormPage } from "@/components/movement-forms/movement-form-page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Position journal" };

/** The position journal form; `?from=&to=` open it on those accounts. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  await requirePermission("movements:write");
  const { accounts, problems } = await prefill(searchParams, ["from", "to"]);
  return (
    <MovementFormPage title="Position journal" problems={problems}>
      <PositionJournalForm from={accounts.from} to={accounts.to} />
    </MovementFormPage>
  );
}
