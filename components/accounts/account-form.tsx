"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { FormProvider, useForm, useFormContext, useWatch, type Resolver } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Field, Input, Select } from "@/components/ui/field";
import type { ActionResult } from "@/lib/errors";
import { ACCOUNT_TYPES, createAccountSchema, emptyAddress, updateAccountSchema, type AccountFormValues } from "@/lib/schemas/virtual-account";
import { diffAccount, type DiffLine } from "@/lib/schemas/virtual-account-diff";
import { createVirtualAccount } from "@/server/actions/accounts-create";
import { updateVirtualAccount } from "@/server/actions/accounts-update";
import { ChinaConnectSection, TradingSection, W8benSection, type MasterInfo } from "./account-form-sections";
import { DiffConfirm } from "./diff-confirm";
import { errorAt } from "./form-fields";

type Props =
  | { mode: "create"; master: MasterInfo; clientRequestId: string }
  | { mode: "edit"; master: MasterInfo; clientRequestId: string; initial: AccountFormValues & { account_id: string }; accountNumber: string; accountType: string; externalNumber: string };

export function blankAccountValues(clientRequestId: string): AccountFormValues {
  return {
    client_request_id: clientRequestId,
    account_type: "CASH",
    external_account_number: "",
    trading_permissions: ["US_STOCK_NORMAL"],
    option_level: "",
    commission_code: "",
    w8ben_info: {
      first_name: "", middle_name: "", last_name: "", treaty_country: "", tax_id: "", sign_date: new Date().toISOString().slice(0, 10),
      home_address: emptyAddress(), mail_same_as_home: true, mail_address: emptyAddress(),
    },
    china_connect_investor_info: { first_name: "", middle_name: "", last_name: "", id_type: "", id_number: "", country_of_issuance: "" },
  };
}

/**
 * One form for opening and updating a virtual account (model: tablecn's shared create/edit form). The resolver
 * is the same zod schema the server action parses with. `client_request_id` was made by the page when the form
 * opened and never changes while it is open: retries and double clicks are the same upstream request.
 */
export function AccountForm(props: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const schema = props.mode === "create" ? createAccountSchema : updateAccountSchema;
  const form = useForm<AccountFormValues>({
    resolver: zodResolver(schema as never) as unknown as Resolver<AccountFormValues>,
    defaultValues: props.mode === "create" ? blankAccountValues(props.clientRequestId) : { ...props.initial, client_request_id: props.clientRequestId },
    mode: "onSubmit",
  });
  const [banner, setBanner] = useState<string>();
  const [pending, setPending] = useState<{ values: AccountFormValues; diff: DiffLine[] }>();
  const inFlight = useRef(false);
  const [sending, setSending] = useState(false);
  const { isSubmitting } = form.formState;

  async function send(values: AccountFormValues) {
    if (inFlight.current) return; // a second click while the first is on its way: same request, nothing to add
    inFlight.current = true;
    setSending(true);
    setBanner(undefined);
    try {
      const res: ActionResult<{ accountId: string }> =
        props.mode === "create"
          ? await createVirtualAccount(values as Parameters<typeof createVirtualAccount>[0])
          : await updateVirtualAccount({ ...(values as Parameters<typeof updateVirtualAccount>[0]), account_id: props.initial.account_id });
      if (res.ok) {
        await queryClient.invalidateQueries({ queryKey: ["accounts"] });
        router.push(`/accounts/${res.data.accountId}?${props.mode === "create" ? "created" : "updated"}=1`);
        return;
      }
      for (const [field, message] of Object.entries(res.fieldErrors ?? {})) form.setError(field as never, { message }, { shouldFocus: true });
      setBanner(res.serverError);
      setPending(undefined);
    } catch {
      setBanner("The server could not be reached. Your entries are kept: submit again, it will not open a second account.");
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  }

  const review = async (values: AccountFormValues) => {
    if (props.mode === "create") return send(values);
    const diff = diffAccount(props.initial, values);
    if (diff.length === 0) return setBanner("Nothing to update: the values are the same as the account's.");
    setPending({ values, diff });
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => form.handleSubmit(review)(e);

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="flex max-w-6xl flex-col gap-3" aria-label={props.mode === "create" ? "Open a virtual account" : "Update the account"}>
        {banner ? <Alert>{banner}</Alert> : null}
        <div className="grid gap-3 lg:grid-cols-2">
          <div className="flex flex-col gap-3">
            {props.mode === "create" ? <AccountSection master={props.master} /> : <FixedAccountSection {...props} />}
            <TradingSection
              master={props.master}
              currentCommission={props.mode === "edit" ? props.initial.commission_code : undefined}
              currentLevel={props.mode === "edit" ? props.initial.option_level : undefined}
            />
            <ChinaConnectSection />
          </div>
          <div className="self-start">
            <W8benSection />
          </div>
        </div>
        {pending ? (
          <DiffConfirm diff={pending.diff} busy={sending} onCancel={() => setPending(undefined)} onConfirm={() => void send(pending.values)} />
        ) : (
          <div className="sticky bottom-0 flex items-center gap-3 border-t border-slate-200 bg-slate-50/95 py-2">
            <Button type="submit" disabled={isSubmitting || sending}>
              {props.mode === "create" ? (isSubmitting || sending ? "Opening…" : "Open account") : "Review changes"}
            </Button>
            <Link href={props.mode === "create" ? "/accounts" : `/accounts/${props.initial.account_id}`} className="text-sm text-slate-600 hover:underline">
              Cancel
            </Link>
          </div>
        )}
      </form>
    </FormProvider>
  );
}

function AccountSection({ master }: { master: MasterInfo }) {
  const { register, formState, control } = useFormContext<AccountFormValues>();
  const external = useWatch({ control, name: "external_account_number" }) ?? "";
  const typeError = errorAt(formState.errors, "account_type");
  const extError = errorAt(formState.errors, "external_account_number");
  const preview = `V${master.entityCode ?? "?"}${external.trim() || "…"}`;
  return (
    <fieldset className="rounded border border-slate-200 bg-white">
      <legend className="sr-only">Account</legend>
      <h2 className="border-b border-slate-200 px-3 py-2 text-sm font-semibold text-slate-800">Account</h2>
      <div className="grid grid-cols-2 gap-3 p-3">
        <Field id="f-account_type" label="Account type" error={typeError}>
          <Select id="f-account_type" aria-invalid={!!typeError} {...register("account_type")}>
            {ACCOUNT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t === "CASH" ? "Cash" : "Margin"}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="f-external_account_number" label="External account number" error={extError} hint={<span>Account number will be <b className="font-mono" data-testid="account-number-preview">{preview}</b></span>}>
          <Input id="f-external_account_number" maxLength={10} autoComplete="off" aria-invalid={!!extError} className="font-mono" {...register("external_account_number")} />
        </Field>
        <p className="col-span-2 text-xs text-slate-500">
          Master account <span className="font-mono">{master.accountNumber ?? "—"}</span>. Type and external number cannot be changed later.
        </p>
      </div>
    </fieldset>
  );
}

function FixedAccountSection(props: Extract<Props, { mode: "edit" }>) {
  return (
    <fieldset className="rounded border border-slate-200 bg-white">
      <legend className="sr-only">Account</legend>
      <h2 className="border-b border-slate-200 px-3 py-2 text-sm font-semibold text-slate-800">Account</h2>
      <dl className="grid grid-cols-3 gap-3 p-3 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Account number</dt>
          <dd className="font-mono">{props.accountNumber}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Type</dt>
          <dd>{props.accountType}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">External number</dt>
          <dd className="font-mono">{props.externalNumber}</dd>
        </div>
        <p className="col-span-3 text-xs text-slate-500">Account type, master account and external number cannot be changed.</p>
      </dl>
    </fieldset>
  );
}
