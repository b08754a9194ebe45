"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import type { z } from "zod";
import { ActionForm } from "@/components/form/action-form";
import { FormSection } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { useUnsavedChanges } from "@/components/form/use-unsaved-changes";
import { Button } from "@/components/ui/button";
import { Options } from "@/components/ui/field";
import { isPendingApproval, type PendingApproval } from "@/lib/errors";
import {
  ACCOUNT_TYPES,
  createAccountSchema,
  emptyAddress,
  updateAccountSchema,
  type AccountFormValues,
  type CreateAccountValues,
  type UpdateAccountValues,
} from "@/lib/schemas/virtual-account";
import { diffAccount, type DiffLine } from "@/lib/schemas/virtual-account-diff";
import { createVirtualAccount, updateVirtualAccount } from "@/server/actions/accounts";
import { ChinaConnectSection, TradingSection, W8benSection, type MasterInfo } from "./account-form-sections";
import { DiffConfirm } from "./diff-confirm";
import { SelectField, TextField } from "./form-fields";

type Props =
  | { mode: "create"; master: MasterInfo; clientRequestId: string }
  | {
      mode: "edit";
      master: MasterInfo;
      clientRequestId: string;
      initial: AccountFormValues & { account_id: string };
      accountNumber: string;
      accountType: string;
      externalNumber: string;
    };

export function blankAccountValues(clientRequestId: string): AccountFormValues {
  return {
    client_request_id: clientRequestId,
    account_type: "CASH",
    external_account_number: "",
    trading_permissions: ["US_STOCK_NORMAL"],
    option_level: "",
    commission_code: "",
    w8ben_info: {
      first_name: "",
      middle_name: "",
      last_name: "",
      treaty_country: "",
      tax_id: "",
      sign_date: new Date().toISOString().slice(0, 10),
      home_address: emptyAddress(),
      mail_same_as_home: true,
      mail_address: emptyAddress(),
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
  const [pending, setPending] = useState<{ values: AccountFormValues; diff: DiffLine[] }>();
  const [saved, setSaved] = useState(false);
  const { form, onSubmit, submit, banner, setBanner, busy } = useActionForm<
    AccountFormValues,
    AccountFormValues,
    { accountId: string } | PendingApproval
  >({
    // one form, two schemas: the create/edit values share a shape (`AccountFormValues`); each schema parses its own
    schema: (props.mode === "create" ? createAccountSchema : updateAccountSchema) as unknown as z.ZodType<
      AccountFormValues,
      AccountFormValues
    >,
    defaultValues:
      props.mode === "create" ? blankAccountValues(props.clientRequestId) : { ...props.initial, client_request_id: props.clientRequestId },
    action: (values) =>
      props.mode === "create"
        ? createVirtualAccount(values as CreateAccountValues)
        : updateVirtualAccount({ ...(values as UpdateAccountValues), account_id: props.initial.account_id }),
    // the same client_request_id goes again, so a retry after a lost answer cannot open a second account
    networkError:
      props.mode === "create"
        ? "The server could not be reached. Your entries are kept: submit again, it will not open a second account."
        : undefined,
    onSuccess: async (data) => {
      setSaved(true);
      // an approval rule held the update: nothing was sent; its request waits on the approvals page
      if (isPendingApproval(data)) return router.push(`/approvals/${data.approvalId}`);
      await queryClient.invalidateQueries({ queryKey: ["accounts"] });
      router.push(`/accounts/${data.accountId}?${props.mode === "create" ? "created" : "updated"}=1`);
    },
    onFailure: () => setPending(undefined),
    // an update is reviewed first: every changed field, before → after, then Confirm sends it
    onValid: (values): void => {
      if (props.mode === "create") return void submit(values);
      const diff = diffAccount(props.initial, values);
      setBanner(diff.length === 0 ? { tone: "info", text: "Nothing to update: the values are the same as the account's." } : undefined);
      if (diff.length > 0) setPending({ values, diff });
    },
  });

  // Once saved the success handler navigates away, and nothing is left to lose. (Not isSubmitSuccessful: a review
  // is a successful submit of the form, and nothing is saved yet.)
  useUnsavedChanges(form.formState.isDirty && !saved && !busy);

  return (
    <ActionForm
      form={form}
      onSubmit={onSubmit}
      banner={banner}
      className="flex max-w-6xl flex-col gap-3"
      aria-label={props.mode === "create" ? "Open a virtual account" : "Update the account"}
    >
      {/* Under review the values are locked: what Confirm sends is what the review shows. */}
      <fieldset disabled={!!pending} className="grid min-w-0 gap-3 lg:grid-cols-2" aria-describedby={pending ? "diff-title" : undefined}>
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
      </fieldset>
      {pending ? (
        <DiffConfirm diff={pending.diff} busy={busy} onCancel={() => setPending(undefined)} onConfirm={() => void submit(pending.values)} />
      ) : (
        <div className="sticky bottom-0 flex items-center gap-3 border-t border-slate-200 bg-slate-50/95 py-2">
          <Button type="submit" disabled={busy}>
            {props.mode === "create" ? (busy ? "Opening…" : "Open account") : "Review changes"}
          </Button>
          <Link
            href={props.mode === "create" ? "/accounts" : `/accounts/${props.initial.account_id}`}
            prefetch={false}
            className="text-sm text-slate-600 hover:underline"
          >
            Cancel
          </Link>
        </div>
      )}
    </ActionForm>
  );
}

function AccountSection({ master }: { master: MasterInfo }) {
  const { control } = useFormContext<AccountFormValues>();
  const external = useWatch({ control, name: "external_account_number" }) ?? "";
  const preview = `V${master.entityCode ?? "?"}${external.trim() || "…"}`;
  return (
    <FormSection title="Account">
      <div className="grid grid-cols-2 gap-3">
        <SelectField name="account_type" label="Account type" required>
          <Options values={ACCOUNT_TYPES} labels={(t) => (t === "CASH" ? "Cash" : "Margin")} />
        </SelectField>
        <TextField
          name="external_account_number"
          label="External account number"
          required
          maxLength={10}
          autoComplete="off"
          className="font-mono"
          hint={
            <span>
              Account number will be{" "}
              <b className="font-mono" data-testid="account-number-preview">
                {preview}
              </b>
            </span>
          }
        />
        <p className="col-span-2 text-xs text-slate-500">
          Master account <span className="font-mono">{master.accountNumber ?? "—"}</span>. Type and external number cannot be changed later.
        </p>
      </div>
    </FormSection>
  );
}

function FixedAccountSection(props: Extract<Props, { mode: "edit" }>) {
  return (
    <FormSection title="Account">
      <dl className="grid grid-cols-3 gap-3 text-sm">
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
    </FormSection>
  );
}
