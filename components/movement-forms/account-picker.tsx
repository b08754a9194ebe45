"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { fieldId, FormSection, useFieldError } from "@/components/form/fields";
import { Listbox, searchPending, useListbox } from "@/components/form/listbox";
import { useDebounced } from "@/components/order-ticket/use-debounced";
import { Badge } from "@/components/ui/badge";
import { errorIdFor, Field, FieldError, Input } from "@/components/ui/field";
import { movementFormKeys, movementFormUrls, type MovementAccount } from "@/lib/schemas/movement-form-data";

/**
 * An account field of a movement form: a debounced search (one upstream list call per pause) over the master
 * account (scope "all") and the virtual accounts, a combobox (`useListbox`: arrows, Enter, Escape; Enter never submits the
 * form); the chosen account shows its number, name and status.
 */
export function MovementAccountPicker({
  name,
  label,
  scope,
  account,
  onAccount,
  exclude,
}: {
  name: string;
  label: string;
  scope: "all" | "virtual";
  account?: MovementAccount;
  onAccount: (account: MovementAccount | undefined) => void;
  /** An account the other side already took: offered disabled. */
  exclude?: string;
}) {
  const [q, setQ] = useState("");
  const settled = useDebounced(q.trim(), 300);
  // The list's open state, made here for the search to wait for it: nothing is asked before the box has the focus.
  const listOpen = useState(false);
  const [open] = listOpen;
  const error = useFieldError(name);
  const id = fieldId(name);
  const hits = useQuery({
    queryKey: movementFormKeys.accounts(settled, scope),
    queryFn: ({ signal }) => fetchJson<MovementAccount[]>(movementFormUrls.accounts(settled, scope), signal),
    enabled: open && !account,
    staleTime: 30_000,
    // The list stays while the next search is on its way: a list that vanished for the fetch would take the click
    // aimed at an account (the one being pressed while the typing settles) with it.
    placeholderData: keepPreviousData,
  });
  const box = useListbox({
    options: hits.data,
    state: listOpen,
    text: q,
    onText: setQ,
    pending: searchPending(q.trim(), settled, hits),
    keyOf: (a) => a.account_id,
    disabled: (a) => a.account_id === exclude,
    onPick: (a) => {
      onAccount(a);
      setQ("");
    },
  });

  if (account) {
    return (
      <div className="flex flex-col gap-1" data-testid={`picked-${name}`}>
        <span className="text-xs font-medium text-slate-700">{label}</span>
        <div className="flex min-h-8 items-center gap-x-3 rounded border border-slate-200 bg-slate-50 px-2 py-1 text-sm">
          <span className="shrink-0 font-mono font-medium">{account.account_number}</span>
          <span className="min-w-0 truncate text-slate-600" title={account.name}>
            {account.name}
          </span>
          <span className="shrink-0">
            {account.is_master ? (
              <Badge tone="blue">Master</Badge>
            ) : (
              <Badge tone={account.account_status === "ACTIVE" ? "green" : "amber"}>{account.account_status || "—"}</Badge>
            )}
          </span>
          <button
            type="button"
            className="ml-auto shrink-0 text-xs text-blue-700 hover:underline"
            onClick={() => onAccount(undefined)}
            aria-label={`Change the ${label.toLowerCase()}`}
            // The account's control while one is picked: the error under it is read with it.
            aria-describedby={errorIdFor(id, error)}
          >
            Change
          </button>
        </div>
        <FieldError id={id} error={error} />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      <Field
        id={id}
        label={label}
        required
        error={error}
        hint={scope === "all" ? "Master account, or a virtual account by number or name" : "Account number, external number or name"}
      >
        {(describedBy) => (
          <Input
            {...box.inputProps}
            id={id}
            aria-invalid={!!error}
            aria-describedby={describedBy}
            placeholder={scope === "all" ? "e.g. master, VBD1000010 or Chen" : "e.g. VBD1000010 or Chen"}
          />
        )}
      </Field>
      <Listbox box={box} label={`Accounts for ${label.toLowerCase()}`}>
        {(a) => (
          <>
            <span className="font-mono">{a.account_number}</span>
            <span className="flex-1 truncate text-slate-600">{a.name}</span>
            <span className="text-xs text-slate-500">{a.is_master ? "master" : a.account_status}</span>
          </>
        )}
      </Listbox>
      {/* Below the list, not above it: a line appearing as a search starts would move the list under the pointer. */}
      {hits.isFetching ? <p className="text-xs text-slate-500">Searching…</p> : null}
      {hits.isError ? <p className="text-xs text-red-700">{(hits.error as Error).message}</p> : null}
    </div>
  );
}

export type JournalSide = "from_account" | "to_account";

/** A journal's two account fields, side by side: each offers the other's choice disabled. */
export function JournalAccounts({
  scope,
  from,
  to,
  onPick,
}: {
  scope: "all" | "virtual";
  from?: MovementAccount;
  to?: MovementAccount;
  onPick: (side: JournalSide, account: MovementAccount | undefined) => void;
}) {
  return (
    <FormSection title="Accounts">
      <div className="grid gap-3 md:grid-cols-2">
        {(["from_account", "to_account"] as const).map((side) => (
          <MovementAccountPicker
            key={side}
            name={side}
            label={side === "from_account" ? "From account" : "To account"}
            scope={scope}
            account={side === "from_account" ? from : to}
            onAccount={(a) => onPick(side, a)}
            exclude={(side === "from_account" ? to : from)?.account_id}
          />
        ))}
      </div>
    </FormSection>
  );
}

/** The one account field of an instant funding or exchange: a virtual account. */
export function VirtualAccountSection({
  account,
  onAccount,
}: {
  account?: MovementAccount;
  onAccount: (account: MovementAccount | undefined) => void;
}) {
  return (
    <FormSection title="Account">
      <MovementAccountPicker name="account_id" label="Virtual account" scope="virtual" account={account} onAccount={onAccount} />
    </FormSection>
  );
}
