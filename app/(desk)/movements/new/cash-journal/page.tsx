import type { Metadata } from "next";
import Link from "next/link";
import { CashJournalForm } from "@/components/movement-forms/cash-journal-form";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";

export const metadata: Metadata = { title: "Cash journal" };

/** The cash journal form; `?from=&to=` open it on those accounts. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const { accounts, problems } = await prefill(searchParams, ["from", "to"]);
  return (
    <>
      <PageHeader
        title="Cash journal"
        description={
          <Link href="/movements/new" className="text-blue-700 hover:underline">
            ← Other movements
          </Link>
        }
      />
      {problems.length ? (
        <div className="mb-3">
          <Alert>{problems.join(" ")} Choose the account below.</Alert>
        </div>
      ) : null}
      <CashJournalForm from={accounts.from} to={accounts.to} />
    </>
  );
}
