import { emptyAddress, type AccountFormValues, type AddressValues } from "./virtual-account";

/**
 * What the browser receives about a virtual account: the upstream's detail (server/broker parses it), with the
 * PII already masked on the server for roles without `pii:view` (`masked` says so). Plain data, no server imports.
 */
export interface AddressView {
  country?: string;
  state?: string;
  city?: string;
  street_address?: string;
  postal_code?: string;
}

export interface W8benView {
  first_name?: string;
  middle_name?: string;
  last_name?: string;
  treaty_country?: string;
  tax_id?: string;
  sign_date?: string;
  home_address?: AddressView;
  mail_address?: AddressView;
}

export interface ChinaConnectView {
  first_name?: string;
  middle_name?: string;
  last_name?: string;
  id_type?: string;
  id_number?: string;
  country_of_issuance?: string;
}

export interface AccountView {
  account_id: string;
  account_number?: string;
  external_account_number?: string;
  belong_account_id?: string;
  belong_account_number?: string;
  account_type?: string;
  account_status?: string;
  trading_permissions: string[];
  option_level?: string;
  commission_code?: string;
  w8ben_info?: W8benView;
  china_connect_investor_info?: ChinaConnectView;
  create_time?: string;
  update_time?: string;
  /** true when tax id, addresses and ID numbers were masked for this viewer. */
  masked: boolean;
}

/** One list row: only what the table shows (no PII beyond the owner's name). */
export interface AccountRow {
  account_id: string;
  account_number: string;
  external_account_number: string;
  owner_name: string;
  account_type: string;
  account_status: string;
  trading_permissions: string[];
  option_level: string;
  commission_code: string;
  create_time: string;
}

export function ownerName(w?: W8benView): string {
  return [w?.first_name, w?.middle_name, w?.last_name].filter(Boolean).join(" ");
}

const addressValues = (a?: AddressView): AddressValues => ({
  ...emptyAddress(),
  ...Object.fromEntries(Object.entries(a ?? {}).filter(([, v]) => typeof v === "string")),
});

const sameAddress = (a?: AddressView, b?: AddressView) => JSON.stringify(addressValues(a)) === JSON.stringify(addressValues(b));

/** The edit form's starting values: the account as it is now. */
export function formValuesFromAccount(a: AccountView, clientRequestId: string): AccountFormValues & { account_id: string } {
  const w = a.w8ben_info ?? {};
  const cn = a.china_connect_investor_info ?? {};
  return {
    account_id: a.account_id,
    client_request_id: clientRequestId,
    trading_permissions: a.trading_permissions as AccountFormValues["trading_permissions"],
    option_level: (a.option_level ?? "") as AccountFormValues["option_level"],
    commission_code: (a.commission_code ?? "") as AccountFormValues["commission_code"],
    w8ben_info: {
      first_name: w.first_name ?? "",
      middle_name: w.middle_name ?? "",
      last_name: w.last_name ?? "",
      treaty_country: w.treaty_country ?? "",
      tax_id: w.tax_id ?? "",
      sign_date: w.sign_date ?? "",
      home_address: addressValues(w.home_address),
      mail_same_as_home: sameAddress(w.home_address, w.mail_address),
      mail_address: addressValues(w.mail_address),
    },
    china_connect_investor_info: {
      first_name: cn.first_name ?? "",
      middle_name: cn.middle_name ?? "",
      last_name: cn.last_name ?? "",
      id_type: (cn.id_type ?? "") as AccountFormValues["china_connect_investor_info"]["id_type"],
      id_number: cn.id_number ?? "",
      country_of_issuance: cn.country_of_issuance ?? "",
    },
  };
}
