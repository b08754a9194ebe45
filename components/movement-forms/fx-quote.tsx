"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { convertAt, isCurrency } from "@/lib/money";
import { movementFormKeys, movementFormUrls, type FxQuote } from "@/lib/schemas/movement-form-data";

/**
 * The live quote of a currency pair: read when the pair is chosen and read again as soon as it expires, so the
 * form always shows (and computes with) a quote that is still good. `requotes` counts the automatic re-quotes.
 */
export function useFxQuote(from: string | undefined, to: string | undefined) {
  const enabled = !!from && !!to && from !== to;
  const query = useQuery({
    queryKey: movementFormKeys.quote(from ?? "", to ?? ""),
    queryFn: ({ signal }) => fetchJson<FxQuote>(movementFormUrls.quote(from!, to!), signal),
    enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const now = useNow(enabled);
  const expiresAt = query.data ? Date.parse(query.data.rate_expire_time) : undefined;
  const left = expiresAt === undefined ? undefined : Math.max(0, Math.ceil((expiresAt - now) / 1000));
  const expired = left === 0;
  const [requotes, setRequotes] = useState(0);
  const asked = useRef<string>(undefined);
  const { refetch, isFetching } = query;
  useEffect(() => {
    if (!expired || isFetching || !query.data) return;
    const key = `${from}${to}${query.data.rate_expire_time}`;
    const again = asked.current === key; // the upstream answered the same quote: its clock is a little behind
    asked.current = key;
    const t = setTimeout(
      () => {
        if (!again) setRequotes((n) => n + 1);
        void refetch();
      },
      again ? 1000 : 0,
    );
    return () => clearTimeout(t);
  }, [expired, isFetching, query.data, refetch, from, to]);
  return { ...query, secondsLeft: left, expired, requotes };
}

function useNow(ticking: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: "UTC" }) + " UTC";

function QuoteFact({ label, testId, strong, children }: { label: string; testId: string; strong?: boolean; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-slate-600">{label}</dt>
      <dd className={`tabular-nums ${strong ? "font-medium" : ""}`} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The quote as a panel: rate, effective and expiry times, a countdown, and the re-quote when it expires. */
export function FxQuotePanel({ quote }: { quote: ReturnType<typeof useFxQuote> }) {
  const q = quote.data;
  return (
    <section className="rounded border border-slate-200 bg-white" aria-label="Live quote" data-testid="fx-quote">
      <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold text-slate-800">Live quote</h2>
        {q ? (
          <span
            className={`text-xs tabular-nums ${quote.expired ? "text-amber-700" : "text-slate-600"}`}
            data-testid="fx-quote-countdown"
            aria-live="polite"
          >
            {quote.expired || quote.isFetching ? "Expired: re-quoting…" : `expires in ${quote.secondsLeft} s`}
          </span>
        ) : null}
      </header>
      <div className="p-3 text-sm">
        {!q && !quote.isFetching && !quote.isError ? (
          <p className="text-xs text-slate-500">Choose two currencies to see the rate.</p>
        ) : null}
        {quote.isError ? <p className="text-xs text-red-700">{(quote.error as Error).message}</p> : null}
        {q ? (
          <dl className="flex flex-col gap-0.5">
            <QuoteFact label={`1 ${q.from_currency} =`} testId="fx-quote-rate" strong>
              {q.fx_rate} {q.to_currency}
            </QuoteFact>
            <QuoteFact label="Effective" testId="fx-quote-effective">
              {time(q.rate_effective_time)}
            </QuoteFact>
            <QuoteFact label="Expires" testId="fx-quote-expires">
              {time(q.rate_expire_time)}
            </QuoteFact>
            {quote.requotes > 0 ? (
              <p className="mt-1 text-xs text-slate-500" data-testid="fx-quote-requoted">
                Re-quoted automatically ({quote.requotes}×) when the last quote expired.
              </p>
            ) : null}
          </dl>
        ) : null}
      </div>
    </section>
  );
}

/** What `amount` gives at `rate`, rounded down to the target currency; undefined while either is missing or invalid. */
export function estimateOf(amount: string | undefined, rate: string | undefined, to: string | undefined): string | undefined {
  if (!amount || !rate || !to || !isCurrency(to) || !/^\d+(\.\d+)?$/.test(amount.trim())) return undefined;
  return convertAt(amount.trim(), rate, to);
}
