"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { ago, formatDateTime } from "@/lib/format";
import type { OrderCheck } from "@/lib/schemas/order-check";
import { checkAccountOrders } from "@/server/actions/orders";

const key = (account: string) => ["orders-check", account] as const;
/** One height in every state (the loaded line holds a small button): the blotter below does not move as it loads. */
const LINE = "flex min-h-7 flex-wrap items-center gap-x-2 text-xs";

/**
 * An account's open orders as of the desk's last read at the upstream (the orders sweep): when that was, "Checking…"
 * while a check is on its way (opening this line asks for one, and so does its refresh every 15 s), and
 * "Check now". Orders a check finds arrive in the blotter live.
 */
export function OrderCheckLine({ account }: { account: string }) {
  const queryClient = useQueryClient();
  const { run, busy, banner } = useAction();
  const query = useQuery({
    queryKey: key(account),
    // Opening the line and its refresh every 15 s ask for a check; the 1 s polls while one is on its way only read.
    queryFn: ({ signal }) => {
      const waiting = queryClient.getQueryData<OrderCheck>(key(account))?.pending;
      return fetchJson<OrderCheck>(`/api/orders/check?account=${encodeURIComponent(account)}${waiting ? "&peek=1" : ""}`, signal);
    },
    refetchInterval: (q) => (q.state.data?.pending ? 1_000 : 15_000),
    retry: false,
  });
  const check = query.data;
  if (query.error) {
    return (
      <p className={`${LINE} text-slate-500`} data-testid="order-check">
        {query.error.message}
      </p>
    );
  }
  if (!check) return <p className={`${LINE} text-slate-500`}>Reading when this account&apos;s orders were last checked…</p>;
  const name = check.accountNumber ?? check.accountId;
  return (
    <div className="flex flex-col gap-1">
      <p className={`${LINE} text-slate-600`} data-testid="order-check" data-pending={check.pending}>
        <span>
          Open orders of <span className="font-medium text-slate-800">{name}</span> at the upstream:{" "}
          {check.checkedAt ? (
            <>
              checked <time dateTime={check.checkedAt}>{formatDateTime(check.checkedAt)}</time> ({ago(check.checkedAt)}),{" "}
              {check.openOrders === 1 ? "1 open" : `${check.openOrders ?? 0} open`}
            </>
          ) : (
            "not checked yet"
          )}
        </span>
        {check.pending ? <span className="text-blue-700">· checking…</span> : null}
        {check.lastError ? <span className="text-red-700">· the last check failed: {check.lastError}</span> : null}
        <Button
          size="sm"
          variant="secondary"
          disabled={busy || check.pending}
          onClick={() =>
            void run(() => checkAccountOrders({ account }), {
              onSuccess: (fresh) => void queryClient.setQueryData(key(account), fresh),
            })
          }
        >
          Check now
        </Button>
      </p>
      <FormBanner banner={banner} />
    </div>
  );
}
