import "server-only";
import type { AccountView, AddressView, ChinaConnectView, W8benView } from "@/lib/schemas/virtual-account-view";

/**
 * PII masking, done on the server before anything reaches a browser: tax id, street, city, state and postal code
 * of both W-8BEN addresses and the China Connect ID number. Names and countries stay visible: support finds
 * accounts by name and the treaty country decides the withholding rate.
 */
export const MASK = "••••";

/** Keeps the last two characters of long values, so a reviewer can tell two ids apart without reading them. */
export function maskValue(value: string | undefined): string | undefined {
  if (!value) return value;
  return value.length >= 8 ? `${MASK}${value.slice(-2)}` : MASK;
}

function maskAddress(a: AddressView | undefined): AddressView | undefined {
  if (!a) return a;
  return {
    country: a.country,
    state: a.state ? MASK : a.state,
    city: a.city ? MASK : a.city,
    street_address: a.street_address ? MASK : a.street_address,
    postal_code: a.postal_code ? MASK : a.postal_code,
  };
}

function maskW8ben(w: W8benView | undefined): W8benView | undefined {
  if (!w) return w;
  return { ...w, tax_id: maskValue(w.tax_id), home_address: maskAddress(w.home_address), mail_address: maskAddress(w.mail_address) };
}

function maskChinaConnect(c: ChinaConnectView | undefined): ChinaConnectView | undefined {
  return c ? { ...c, id_number: maskValue(c.id_number) } : c;
}

/** The account as a viewer may see it: unchanged with `pii:view`, masked (and flagged) otherwise. */
export function maskAccount(account: Omit<AccountView, "masked">, canViewPii: boolean): AccountView {
  if (canViewPii) return { ...account, masked: false };
  return {
    ...account,
    w8ben_info: maskW8ben(account.w8ben_info),
    china_connect_investor_info: maskChinaConnect(account.china_connect_investor_info),
    masked: true,
  };
}

/** Only the fields masking hides: what a compliance reveal returns. */
export function piiOf(account: Omit<AccountView, "masked">) {
  const w = account.w8ben_info;
  return {
    tax_id: w?.tax_id,
    home_address: w?.home_address,
    mail_address: w?.mail_address,
    china_connect_id_number: account.china_connect_investor_info?.id_number,
  };
}
