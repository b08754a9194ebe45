import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AccountDetail } from "@/components/accounts/account-detail";
import { TradingCredentialsSection } from "./trading-credentials-section";
import { accountKeys } from "@/components/accounts/query-keys";
import { pendingMarksResource } from "@/components/approvals/query-keys";
import { dehydrateAsOf, makeQueryClient } from "@/components/data-table/query-client";
import { can } from "@/lib/auth/permissions";
import { getAccountActivities, getAccountBalance, getAccountFor, getAccountPositions } from "@/server/accounts/accounts";
import { pendingMarks } from "@/server/approvals/queue";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";

export const metadata: Metadata = { title: "Account" };

/**
 * Prefetches the four parts in parallel, and the held requests that touch the account (the desk's own table). A part
 * whose upstream call fails is simply not prefetched: its panel fetches it again in the browser and, if that fails
 * too, shows its own error with a Retry. Only an account the upstream does not know makes the whole page a 404.
 */
export default async function AccountPage({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const staff = await requirePermission("accounts:read");
  const { accountId } = await params;
  const sp = await searchParams;
  const queryClient = makeQueryClient();
  const readAt = requestReadAt();
  const overview = getAccountFor(staff, accountId).catch(() => null);
  const readsApprovals = can(staff, "approvals:read");
  await Promise.all([
    readsApprovals &&
      queryClient.prefetchQuery({
        queryKey: pendingMarksResource.key({ account: accountId }),
        queryFn: async () => ({ rows: await pendingMarks(await getDb(), { account: accountId }) }),
      }),
    overview.then((a) => a && queryClient.setQueryData(accountKeys.overview(accountId), a)),
    queryClient.prefetchQuery({ queryKey: accountKeys.balance(accountId), queryFn: () => getAccountBalance(accountId) }),
    queryClient.prefetchQuery({ queryKey: accountKeys.positions(accountId), queryFn: () => getAccountPositions(accountId) }),
    queryClient.prefetchInfiniteQuery({
      queryKey: accountKeys.activities(accountId),
      queryFn: () => getAccountActivities(accountId),
      initialPageParam: undefined,
    }),
  ]);
  if ((await overview) === undefined) notFound();
  const notice = sp.created ? "The account was opened." : sp.updated ? "The account was updated." : undefined;
  return (
    <HydrationBoundary state={dehydrateAsOf(queryClient, readAt)}>
      <AccountDetail
        accountId={accountId}
        canWrite={can(staff, "accounts:write")}
        canReveal={can(staff, "pii:reveal")}
        canPlace={can(staff, "orders:place")}
        canReadOrders={can(staff, "orders:read")}
        canMove={can(staff, "movements:write")}
        canReadApprovals={readsApprovals}
        canReadStatements={can(staff, "statements:read")}
        notice={notice}
      />
      {can(staff, "accounts:write") ? <TradingCredentialsSection accountId={accountId} /> : null}
    </HydrationBoundary>
  );
}
