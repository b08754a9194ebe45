import type { Metadata } from "next";
import Link from "next/link";
import { PositionJournalForm } from "@/components/movement-forms/position-journal-form";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";

export const metadata: Metadata = { title: "Position journal" };

/** The position journal form; `?from=&to=` open it on those accounts. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const { accounts, problems } = await prefill(searchParams, ["from", "to"]);
  return (
    <>
      <PageHeader
        title="Position journal"
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
      <PositionJournalForm from={accounts.from} to={accounts.to} />
    </>
  );
}
