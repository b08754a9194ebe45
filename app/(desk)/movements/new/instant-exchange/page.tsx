import type { Metadata } from "next";
import Link from "next/link";
import { InstantExchangeForm } from "@/components/movement-forms/instant-exchange-form";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";

export const metadata: Metadata = { title: "Instant exchange" };

/** The instant exchange form; `?account=` opens it on that account. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const { accounts, problems } = await prefill(searchParams, ["account"]);
  return (
    <>
      <PageHeader
        title="Instant exchange"
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
      <InstantExchangeForm account={accounts.account} />
    </>
  );
}
