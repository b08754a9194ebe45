"use client";
import { TextField } from "./form-fields";

/** One W-8BEN address (home or mailing). */
export function AddressFields({ prefix, label }: { prefix: "w8ben_info.home_address" | "w8ben_info.mail_address"; label: string }) {
  return (
    <div className="grid gap-3">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</p>
      <TextField name={`${prefix}.street_address`} label="Street" required aria-label={`${label}: street`} autoComplete="off" />
      <div className="grid grid-cols-2 gap-3 xl:grid-cols-4">
        <TextField name={`${prefix}.city`} label="City" required aria-label={`${label}: city`} />
        <TextField name={`${prefix}.state`} label="State / region" aria-label={`${label}: state`} />
        <TextField name={`${prefix}.postal_code`} label="Postal code" aria-label={`${label}: postal code`} />
        <TextField
          name={`${prefix}.country`}
          label="Country (ISO code)"
          required
          aria-label={`${label}: country`}
          maxLength={2}
          className="uppercase"
        />
      </div>
    </div>
  );
}
