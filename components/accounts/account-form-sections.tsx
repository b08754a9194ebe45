"use client";
import { useFormContext, useWatch } from "react-hook-form";
import { FormSection } from "@/components/form/fields";
import { Alert, Options } from "@/components/ui/field";
import {
  COMMISSION_CODES,
  ID_TYPE_LABELS,
  ID_TYPES,
  latestToday,
  levelRank,
  OPTION_LEVELS,
  PERMISSION_LABELS,
  TRADING_PERMISSIONS,
  w8benLapsed,
  w8benValidUntil,
  type AccountFormValues,
} from "@/lib/schemas/virtual-account";
import { AddressFields } from "./address-fields";
import { commissionLabel } from "./labels";
import { CheckboxField, CheckboxGroupField, DateField, SelectField, TextField } from "./form-fields";

const PERMISSION_OPTIONS = TRADING_PERMISSIONS.map((p) => ({
  value: p,
  label: (
    <>
      {PERMISSION_LABELS[p]} <span className="font-mono text-[10px] text-slate-400">{p}</span>
    </>
  ),
}));

export interface MasterInfo {
  accountNumber?: string;
  entityCode?: string;
  optionLevel?: string;
  optionLevelSource: "config" | "sandbox" | "unknown";
}

/** Trading permissions, option level (levels above the master's shown disabled, with the reason) and commission. */
export function TradingSection({
  master,
  currentCommission,
  currentLevel,
}: {
  master: MasterInfo;
  currentCommission?: string;
  currentLevel?: string;
}) {
  const { control } = useFormContext<AccountFormValues>();
  const permissions = useWatch({ control, name: "trading_permissions" }) ?? [];
  const options = permissions.includes("US_OPTION_NORMAL");
  const maxRank = levelRank(master.optionLevel) || OPTION_LEVELS.length;
  const codes =
    currentCommission && !(COMMISSION_CODES as readonly string[]).includes(currentCommission)
      ? [...COMMISSION_CODES, currentCommission]
      : COMMISSION_CODES;
  return (
    <FormSection title="Trading">
      <CheckboxGroupField name="trading_permissions" label="Trading permissions" options={PERMISSION_OPTIONS} />
      <div className="grid grid-cols-2 gap-3">
        <SelectField
          name="option_level"
          label="Option level"
          hint={
            master.optionLevel
              ? `Up to the master account's ${master.optionLevel}${master.optionLevelSource === "sandbox" ? " (sandbox)" : ""}.`
              : "The master account's level is not known here; the broker checks it."
          }
        >
          {/* An account's level can be changed but not cleared: the upstream keeps it when none is sent. */}
          <option value="" disabled={!!currentLevel}>
            {currentLevel ? "None (a level cannot be removed)" : options ? "Choose a level" : "None (no US options)"}
          </option>
          {OPTION_LEVELS.map((l, i) => (
            <option key={l} value={l} disabled={i + 1 > maxRank}>
              {l}
              {i + 1 > maxRank ? ` (above the master account's ${master.optionLevel})` : ""}
            </option>
          ))}
        </SelectField>
        <SelectField name="commission_code" label="Commission">
          <option value="">Broker default</option>
          <Options values={codes} labels={commissionLabel} />
        </SelectField>
      </div>
    </FormSection>
  );
}

/** The W-8BEN: names, treaty country, tax id, signature date, home and mailing addresses ("same as home"). */
export function W8benSection() {
  const { control } = useFormContext<AccountFormValues>();
  const same = useWatch({ control, name: "w8ben_info.mail_same_as_home" });
  const signDate = useWatch({ control, name: "w8ben_info.sign_date" }) ?? "";
  const lapsed = w8benLapsed(signDate);
  return (
    <FormSection title="W-8BEN">
      <div className="grid grid-cols-3 gap-3">
        <TextField name="w8ben_info.first_name" label="First name" required autoComplete="off" />
        <TextField name="w8ben_info.middle_name" label="Middle name" autoComplete="off" />
        <TextField name="w8ben_info.last_name" label="Last name" required autoComplete="off" />
      </div>
      <div className="grid grid-cols-3 gap-3">
        <TextField name="w8ben_info.treaty_country" label="Treaty country (ISO code)" maxLength={2} className="uppercase" />
        <TextField name="w8ben_info.tax_id" label="Tax id" autoComplete="off" />
        <DateField
          name="w8ben_info.sign_date"
          label="Signature date"
          required
          max={latestToday()}
          hint={
            lapsed ? (
              <span role="status" className="font-medium text-amber-800">
                Lapsed on {w8benValidUntil(signDate)}: a W-8BEN is valid to the end of the third year after signing. Ask the customer for a
                new one.
              </span>
            ) : undefined
          }
        />
      </div>
      <AddressFields prefix="w8ben_info.home_address" label="Home address" />
      <CheckboxField name="w8ben_info.mail_same_as_home" label="Mailing address same as home" />
      {same ? null : <AddressFields prefix="w8ben_info.mail_address" label="Mailing address" />}
    </FormSection>
  );
}

/** Asked only when China Connect (CN_STOCK_NORMAL) is granted. */
export function ChinaConnectSection() {
  const { control } = useFormContext<AccountFormValues>();
  const permissions = useWatch({ control, name: "trading_permissions" }) ?? [];
  if (!permissions.includes("CN_STOCK_NORMAL")) return null;
  return (
    <FormSection title="China Connect investor">
      <Alert tone="info">Required because China Connect trading is granted.</Alert>
      <div className="grid grid-cols-3 gap-3">
        <TextField name="china_connect_investor_info.first_name" label="CN first name" required />
        <TextField name="china_connect_investor_info.middle_name" label="CN middle name" />
        <TextField name="china_connect_investor_info.last_name" label="CN last name" required />
      </div>
      <div className="grid grid-cols-3 gap-3">
        <SelectField name="china_connect_investor_info.id_type" label="ID type" required>
          <option value="">Choose…</option>
          <Options values={ID_TYPES} labels={ID_TYPE_LABELS} />
        </SelectField>
        <TextField name="china_connect_investor_info.id_number" label="ID number" required autoComplete="off" />
        <TextField
          name="china_connect_investor_info.country_of_issuance"
          label="Country of issuance (ISO code)"
          required
          maxLength={2}
          className="uppercase"
        />
      </div>
    </FormSection>
  );
}
