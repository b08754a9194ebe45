import { z } from "zod";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, ID_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "@/lib/broker-enums";
import { isCountryCode } from "@/lib/countries";
import { isDeskDate } from "@/lib/format";
import "./messages";
import { CLIENT_ID_PATTERN } from "@/lib/ids";

/**
 * One schema for the virtual-account form: the create/edit form's resolver and the server actions parse with the
 * same objects. Form values are flat strings and booleans (what inputs hold); `toUpstreamFields` turns them into
 * the wire shape (facts §5.4). The enums are the wire's, shared with the client and the sandbox.
 */
export { ACCOUNT_STATUSES, ACCOUNT_TYPES, ID_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS };
export const COMMISSION_CODES = [
  "COMMISSION_GROUP_1",
  "COMMISSION_GROUP_2",
  "COMMISSION_GROUP_3",
  "COMMISSION_GROUP_4",
  "COMMISSION_GROUP_5",
] as const;

export type OptionLevel = (typeof OPTION_LEVELS)[number];
export type TradingPermission = (typeof TRADING_PERMISSIONS)[number];

export const PERMISSION_LABELS: Record<TradingPermission, string> = {
  US_STOCK_NORMAL: "US stocks",
  US_STOCK_FRACTIONAL: "US fractional",
  US_STOCK_OVERNIGHT: "US overnight",
  US_OPTION_NORMAL: "US options",
  HK_STOCK_NORMAL: "HK stocks",
  HK_STOCK_FRACTIONAL: "HK fractional",
  CN_STOCK_NORMAL: "China Connect",
};
export const ID_TYPE_LABELS: Record<(typeof ID_TYPES)[number], string> = {
  ID_CARD: "ID card",
  PASSPORT: "Passport",
  CERT_INCORP: "Certificate of incorporation",
  LEI: "LEI",
  OTHER_OFFICIAL_ID_DOC: "Other official ID",
};

export const levelRank = (level: string | undefined | null) => (level ? OPTION_LEVELS.indexOf(level as OptionLevel) + 1 : 0);

/**
 * What a tax form may hold (the values also reach CSV exports): printable text without control or format characters
 * (zero-width characters, bidirectional overrides), unassigned or private-use code points, line breaks, or emoji.
 */
export const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3\uFE00-\uFE0F]/u;
/** A person's name: letters (with their accents), spaces, apostrophes, hyphens and periods, starting with a letter. */
const NAME = /^\p{L}[\p{L}\p{M}\p{Zs}'’.\-]*$/u;
export const UNPRINTABLE_MESSAGE = "Remove the emoji, symbols or invisible characters";
export const NAME_MESSAGE = "Use letters, spaces, hyphens, apostrophes and periods only";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .refine((v) => !UNPRINTABLE.test(v), UNPRINTABLE_MESSAGE);
const required = (message: string, max = 64) =>
  z
    .string()
    .trim()
    .min(1, message)
    .max(max, `At most ${max} characters`)
    .refine((v) => !UNPRINTABLE.test(v), UNPRINTABLE_MESSAGE);
const nameOf = (v: string) => !v || (NAME.test(v) && !UNPRINTABLE.test(v));
const name = (max = 64) => text(max).refine(nameOf, NAME_MESSAGE);
const requiredName = (message: string) => required(message).refine(nameOf, NAME_MESSAGE);
export const COUNTRY_MESSAGE = "Use an ISO 3166 country code, such as GB or HK";
const optionalCountry = z
  .string()
  .trim()
  .refine((v) => !v || isCountryCode(v), COUNTRY_MESSAGE);

/** The latest calendar date anywhere on Earth right now (UTC+14): a date after it is in the future for everyone. */
export function latestToday(now = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/**
 * A W-8BEN stays in effect until the last day of the third calendar year after the one it was signed in
 * (signed 2022-05-10: valid to 2025-12-31). The form warns when the date it is given has lapsed.
 */
export function w8benValidUntil(signDate: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(signDate) ? `${Number(signDate.slice(0, 4)) + 3}-12-31` : undefined;
}
export function w8benLapsed(signDate: string, now = new Date()): boolean {
  const until = w8benValidUntil(signDate);
  return !!until && until < now.toISOString().slice(0, 10);
}

const addressFields = {
  country: z.string().trim(),
  state: text(64),
  city: text(64),
  street_address: text(128),
  postal_code: text(16),
};
export const addressSchema = z.object(addressFields);
export type AddressValues = z.infer<typeof addressSchema>;

export const w8benSchema = z.object({
  first_name: requiredName("Enter the first name"),
  middle_name: name(64),
  last_name: requiredName("Enter the last name"),
  treaty_country: optionalCountry,
  tax_id: text(32),
  sign_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the signature date")
    .refine(isDeskDate, "Enter a date that exists")
    .refine((v) => v <= latestToday(), "The signature date cannot be in the future")
    .refine((v) => v >= "1900-01-01", "Enter the date the form was signed"),
  home_address: addressSchema,
  mail_same_as_home: z.boolean(),
  mail_address: addressSchema,
});

export const chinaConnectSchema = z.object({
  first_name: name(64),
  middle_name: name(64),
  last_name: name(64),
  id_type: z.enum(ID_TYPES).or(z.literal("")),
  id_number: text(64),
  country_of_issuance: z.string().trim(),
});

/** Fields both create and update carry. */
const editableFields = {
  client_request_id: z.string().regex(CLIENT_ID_PATTERN, "Reload the form: its request id is invalid"),
  trading_permissions: z.array(z.enum(TRADING_PERMISSIONS)).min(1, "Grant at least one trading permission"),
  option_level: z.enum(OPTION_LEVELS).or(z.literal("")),
  // the known groups, or whatever code an existing account already has (older upstreams use other names)
  commission_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_]{0,64}$/, "Choose a commission code"),
  w8ben_info: w8benSchema,
  china_connect_investor_info: chinaConnectSchema,
};

type Editable = z.infer<z.ZodObject<typeof editableFields>>;

/** Rules across fields: option level with US options, the mail address unless "same as home", China Connect details with CN trading. */
function crossFieldRules(v: Editable, ctx: z.RefinementCtx) {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  if (v.trading_permissions.includes("US_OPTION_NORMAL") && !v.option_level) {
    issue(["option_level"], "Choose an option level: US options are granted");
  }
  const addressRules = (key: "home_address" | "mail_address", a: AddressValues) => {
    if (!isCountryCode(a.country)) issue(["w8ben_info", key, "country"], COUNTRY_MESSAGE);
    if (!a.city) issue(["w8ben_info", key, "city"], "Enter the city");
    if (!a.street_address) issue(["w8ben_info", key, "street_address"], "Enter the street address");
  };
  addressRules("home_address", v.w8ben_info.home_address);
  if (!v.w8ben_info.mail_same_as_home) addressRules("mail_address", v.w8ben_info.mail_address);
  if (v.trading_permissions.includes("CN_STOCK_NORMAL")) {
    const c = v.china_connect_investor_info;
    const path = (f: string) => ["china_connect_investor_info", f];
    if (!c.first_name) issue(path("first_name"), "Enter the first name");
    if (!c.last_name) issue(path("last_name"), "Enter the last name");
    if (!c.id_type) issue(path("id_type"), "Choose the ID type");
    if (!c.id_number) issue(path("id_number"), "Enter the ID number");
    if (!isCountryCode(c.country_of_issuance)) issue(path("country_of_issuance"), COUNTRY_MESSAGE);
  }
}

export const createAccountSchema = z
  .object({
    ...editableFields,
    account_type: z.enum(ACCOUNT_TYPES, { message: "Choose the account type" }),
    external_account_number: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,10}$/, "Use 1 to 10 letters or digits"),
  })
  .superRefine(crossFieldRules);
export type CreateAccountValues = z.infer<typeof createAccountSchema>;

/** Update: account type, master account and external number cannot change, so the form does not send them. */
export const updateAccountSchema = z.object({ ...editableFields, account_id: z.string().min(1).max(64) }).superRefine(crossFieldRules);
export type UpdateAccountValues = z.infer<typeof updateAccountSchema>;

export type AccountFormValues = Editable & { account_type?: string; external_account_number?: string; account_id?: string };

/** Compliance reveal: the reason is mandatory and lands in the audit entry. */
export const revealPiiSchema = z.object({
  account_id: z.string().min(1).max(64),
  reason: z.string().trim().min(10, "State the reason in at least 10 characters").max(500),
});
export type RevealPiiValues = z.infer<typeof revealPiiSchema>;

const upperOrUndefined = (s: string) => (s ? s.toUpperCase() : undefined);
function addressOut(a: AddressValues) {
  return {
    country: a.country.toUpperCase(),
    city: a.city,
    street_address: a.street_address,
    ...(a.state ? { state: a.state } : {}),
    ...(a.postal_code ? { postal_code: a.postal_code } : {}),
  };
}

/** The wire fields of a create or update (everything but ids), as the upstream expects them. */
export function toUpstreamFields(v: Editable) {
  const w = v.w8ben_info;
  const cn = v.china_connect_investor_info;
  return {
    // canonical order, so toggling checkboxes in another order is not a change
    trading_permissions: TRADING_PERMISSIONS.filter((p) => v.trading_permissions.includes(p)),
    // Sent whenever chosen: an update cannot clear a level (the upstream keeps it when the field is absent), so
    // dropping it with the options permission would make the diff promise a change that never happens.
    ...(v.option_level ? { option_level: v.option_level } : {}),
    ...(v.commission_code ? { commission_code: v.commission_code } : {}),
    w8ben_info: {
      first_name: w.first_name,
      middle_name: w.middle_name,
      last_name: w.last_name,
      ...(w.treaty_country ? { treaty_country: upperOrUndefined(w.treaty_country) } : {}),
      ...(w.tax_id ? { tax_id: w.tax_id } : {}),
      sign_date: w.sign_date,
      home_address: addressOut(w.home_address),
      mail_address: addressOut(w.mail_same_as_home ? w.home_address : w.mail_address),
    },
    ...(v.trading_permissions.includes("CN_STOCK_NORMAL")
      ? {
          china_connect_investor_info: {
            first_name: cn.first_name,
            last_name: cn.last_name,
            ...(cn.middle_name ? { middle_name: cn.middle_name } : {}),
            id_type: cn.id_type as (typeof ID_TYPES)[number],
            id_number: cn.id_number,
            country_of_issuance: cn.country_of_issuance.toUpperCase(),
          },
        }
      : {}),
  };
}

export const emptyAddress = (): AddressValues => ({ country: "", state: "", city: "", street_address: "", postal_code: "" });
