import type { Metadata } from "next";
import Link from "next/link";
import { InstantFundingForm } from "@/components/movement-forms/instant-funding-form";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";

export const metadata: Metadata = { title: "Deposit or withdrawal" };

/** Instant funding; `?account=` opens it on that account, `?type=WITHDRAWAL` on a withdrawal. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const { accounts, problems, params } = await prefill(searchParams, ["account"]);
  return (
    <>
      <PageHeader
        title="Deposit or withdrawal"
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
      <InstantFundingForm account={accounts.account} type={params.type === "WITHDRAWAL" ? "WITHDRAWAL" : "DEPOSIT"} />
    </>
  );
}
