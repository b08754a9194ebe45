"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { compareDecimal, formatMoney } from "@/lib/money";
import { movementFormKeys, movementFormUrls, type AccountCash } from "@/lib/schemas/movement-form-data";

/** An account's available (withdrawable) cash in one currency, read when both are chosen. */
export function useAccountCash(accountId: string | undefined, currency: string | undefined) {
  return useQuery({
    queryKey: movementFormKeys.cash(accountId ?? "", currency ?? ""),
    queryFn: ({ signal }) => fetchJson<AccountCash>(movementFormUrls.cash(accountId!, currency!), signal),
    enabled: !!accountId && !!currency,
    staleTime: 5_000,
  });
}

/** "Available cash: 12,345.67 USD" beside the amount it limits. */
export function CashLine({ label, query, testId }: { label: string; query: ReturnType<typeof useAccountCash>; testId: string }) {
  if (!query.data && !query.isFetching && !query.isError) return null;
  return (
    <p className="flex max-w-[33rem] items-baseline justify-between gap-3 text-sm">
      <span className="text-slate-600">{label}</span>
      {query.isError ? (
        <span className="text-xs text-red-700">{(query.error as Error).message}</span>
      ) : query.data ? (
        <b className="whitespace-nowrap font-medium tabular-nums" data-testid={testId}>
          {formatMoney(query.data.available, query.data.currency)}
        </b>
      ) : (
        <span className="text-xs text-slate-500">reading…</span>
      )}
    </p>
  );
}

/**
 * What the amount field says when `amount` is more than the cash read for that account and currency, or undefined
 * (also while that cash is not read: the upstream checks it again).
 */
export function overAvailableCash(cash: AccountCash | undefined, accountId: string, currency: string, amount: string) {
  if (!cash || cash.account_id !== accountId || cash.currency !== currency || compareDecimal(amount, cash.available) <= 0) return undefined;
  return `More than the available cash: ${formatMoney(cash.available, currency)}`;
}
