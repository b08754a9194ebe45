"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { UseFormSetValue } from "react-hook-form";
import { fetchJson } from "@/components/data-table/fetch-json";
import { fieldId, useFieldError } from "@/components/form/fields";
import { Listbox, searchPending, useListbox } from "@/components/form/listbox";
import { Badge } from "@/components/ui/badge";
import { errorIdFor, Field, FieldError, Input } from "@/components/ui/field";
import { formatMoney } from "@/lib/money";
import type { TicketValues } from "@/lib/schemas/order-ticket";
import type { TicketAccount, TicketAccountHit } from "@/lib/schemas/order-ticket-data";
import { ticketKeys, ticketUrls } from "./ticket-keys";
import { useDebounced } from "./use-debounced";

/**
 * Account picker: a debounced search (one upstream call per pause), a combobox (`useListbox`: arrows, Enter, Escape;
 * Enter never submits the ticket), then the chosen account's level and buying power.
 */
export function TicketAccountPicker({ account, onAccount }: { account?: TicketAccount; onAccount: (id: string | undefined) => void }) {
  const [q, setQ] = useState("");
  const settled = useDebounced(q.trim(), 350);
  const searching = settled.length >= 2;
  const error = useFieldError("account_id");
  const hits = useQuery({
    queryKey: ticketKeys.accounts(settled),
    queryFn: ({ signal }) => fetchJson<TicketAccountHit[]>(ticketUrls.accounts(settled), signal),
    enabled: searching && !account,
    // The list stays while the next search is on its way, as in the movement forms' picker: a list that vanished for
    // the fetch would take the click aimed at an account with it.
    placeholderData: keepPreviousData,
  });
  const id = fieldId("account_id");
  const typed = q.trim();
  const box = useListbox({
    options: searching ? hits.data : undefined,
    text: q,
    onText: setQ,
    pending: typed.length >= 2 && searchPending(typed, settled, hits),
    keyOf: (a) => a.account_id,
    onPick: (a) => onAccount(a.account_id),
  });

  if (account) {
    return (
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" data-testid="ticket-account">
        <span className="font-mono font-medium">{account.account_number}</span>
        <Badge tone={account.account_status === "ACTIVE" ? "green" : "amber"}>{account.account_status || "—"}</Badge>
        <span className="text-slate-600">{account.account_type}</span>
        <span className="text-slate-600">Options {account.option_level || "none"}</span>
        {Object.entries(account.buying_power).map(([ccy, bp]) => (
          <span key={ccy} className="tabular-nums text-slate-700">
            BP <b className="font-medium">{formatMoney(bp, ccy)}</b>
          </span>
        ))}
        {/* The account's control while one is picked: the error under it is read with it. */}
        <button
          type="button"
          className="text-xs text-blue-700 hover:underline"
          onClick={() => onAccount(undefined)}
          aria-label="Change the account"
          aria-describedby={errorIdFor(id, error)}
        >
          Change
        </button>
        <FieldError id={id} error={error} className="w-full" />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <Field id={id} label="Account" required error={error} hint="Account number, external number or name">
        {(describedBy) => (
          <Input {...box.inputProps} id={id} placeholder="e.g. VBD1000010 or Chen" aria-invalid={!!error} aria-describedby={describedBy} />
        )}
      </Field>
      <Listbox box={box} label="Matching accounts">
        {(a) => (
          <>
            <span className="font-mono">{a.account_number}</span>
            <span className="flex-1 truncate text-slate-600">{a.owner_name}</span>
            <span className="text-xs text-slate-500">
              {a.account_type} · {a.option_level || "no options"} · {a.account_status}
            </span>
          </>
        )}
      </Listbox>
      {/* Below the list: a line appearing above it as a search starts would move it under the pointer. */}
      {hits.isFetching ? <p className="text-xs text-slate-500">Searching…</p> : null}
      {hits.isError ? <p className="text-xs text-red-700">{(hits.error as Error).message}</p> : null}
    </div>
  );
}

/** The chosen account, read once; its level and holdings go into the form's hidden fields (they feed the rules). */
export function useTicketAccount(accountId: string, setValue: UseFormSetValue<TicketValues>, initial?: TicketAccount) {
  const query = useQuery({
    queryKey: ticketKeys.account(accountId),
    queryFn: ({ signal }) => fetchJson<TicketAccount>(ticketUrls.account(accountId), signal),
    enabled: !!accountId,
    initialData: initial && initial.account_id === accountId ? initial : undefined,
  });
  const data = query.data;
  useEffect(() => {
    setValue("account_option_level", data?.option_level ?? "");
    setValue("held", data?.held ?? {});
  }, [data, setValue]);
  return query;
}
