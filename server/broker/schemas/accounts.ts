import "server-only";
import { z } from "zod";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, ID_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "@/lib/broker-enums";
import { activity, type Activity } from "@/lib/schemas/account-data";
import { clientId, isoTimestamp, opt, pageIn, tolerantEnum } from "./common";

/** Virtual accounts (facts §5.4) and cash activities (§5.6). */

export { ACCOUNT_STATUSES, ACCOUNT_TYPES, ID_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS };
export { activity, type Activity };

const address = z.object({
  country: z.string().min(1),
  state: z.string().optional(),
  city: z.string().min(1),
  street_address: z.string().min(1),
  postal_code: z.string().optional(),
});
const addressOut = z.object({
  country: opt(z.string()),
  state: opt(z.string()),
  city: opt(z.string()),
  street_address: opt(z.string()),
  postal_code: opt(z.string()),
});

const w8benIn = z.object({
  treaty_country: z.string().optional(),
  tax_id: z.string().optional(),
  sign_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  middle_name: z.string(),
  home_address: address,
  mail_address: address,
});
const w8benOut = z.object({
  treaty_country: opt(z.string()),
  tax_id: opt(z.string()),
  sign_date: opt(z.string()),
  first_name: opt(z.string()),
  last_name: opt(z.string()),
  middle_name: opt(z.string()),
  home_address: opt(addressOut),
  mail_address: opt(addressOut),
});
const chinaConnectIn = z.object({
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  middle_name: z.string().optional(),
  id_type: z.enum(ID_TYPES),
  id_number: z.string().min(1),
  country_of_issuance: z.string().min(1),
});
const chinaConnectOut = z.object({
  first_name: opt(z.string()),
  last_name: opt(z.string()),
  middle_name: opt(z.string()),
  id_type: opt(tolerantEnum(ID_TYPES)),
  id_number: opt(z.string()),
  country_of_issuance: opt(z.string()),
});

const editable = {
  client_request_id: clientId,
  trading_permissions: z.array(z.enum(TRADING_PERMISSIONS)).min(1),
  option_level: z.enum(OPTION_LEVELS).optional(),
  commission_code: z.string().optional(),
  w8ben_info: w8benIn.optional(),
  china_connect_investor_info: chinaConnectIn.optional(),
};
const optionLevelRule = (v: { trading_permissions?: string[]; option_level?: string }) =>
  !v.trading_permissions?.includes("US_OPTION_NORMAL") || !!v.option_level;

export const createVirtualAccountIn = z
  .object({
    ...editable,
    belong_account_id: z.string().min(1),
    external_account_number: z.string().regex(/^[A-Za-z0-9]{1,10}$/, "1 to 10 letters or digits"),
    account_type: z.enum(ACCOUNT_TYPES),
  })
  .refine(optionLevelRule, { message: "option_level is required with US_OPTION_NORMAL", path: ["option_level"] });

export const updateVirtualAccountIn = z
  .object({
    ...editable,
    trading_permissions: editable.trading_permissions.optional(),
    account_id: z.string().min(1),
    // the sandbox lets the back office suspend, freeze or close an account this way
    account_status: z.enum(ACCOUNT_STATUSES).optional(),
  })
  .refine(optionLevelRule, { message: "option_level is required with US_OPTION_NORMAL", path: ["option_level"] });

export const virtualAccountResult = z.object({
  client_request_id: opt(z.string()),
  account_number: opt(z.string()),
  account_id: z.string(),
  account_status: opt(tolerantEnum(ACCOUNT_STATUSES)),
});

export const virtualAccount = z.object({
  account_id: z.string(),
  account_number: opt(z.string()),
  belong_account_id: opt(z.string()),
  belong_account_number: opt(z.string()),
  external_account_number: opt(z.string()),
  account_type: opt(tolerantEnum(ACCOUNT_TYPES)),
  account_status: opt(tolerantEnum(ACCOUNT_STATUSES)),
  trading_permissions: z
    .array(tolerantEnum(TRADING_PERMISSIONS))
    .nullish()
    .transform((v) => v ?? []),
  option_level: opt(tolerantEnum(OPTION_LEVELS)),
  commission_code: opt(z.string()),
  w8ben_info: opt(w8benOut),
  china_connect_investor_info: opt(chinaConnectOut),
  create_time: opt(isoTimestamp),
  update_time: opt(isoTimestamp),
});

export const getVirtualAccountIn = z.object({ account_id: z.string().min(1) });
export const listVirtualAccountsIn = pageIn.extend({
  start_time: z.string().optional(),
  end_time: z.string().optional(),
  // Back-office search filters the sandbox serves (an upstream ignores what it does not know).
  account_number: z.string().optional(),
  external_account_number: z.string().optional(),
  account_status: z.array(z.enum(ACCOUNT_STATUSES)).optional(),
  account_type: z.enum(ACCOUNT_TYPES).optional(),
  option_level: z.enum(OPTION_LEVELS).optional(),
  trading_permission: z.enum(TRADING_PERMISSIONS).optional(),
  name: z.string().optional(),
});

export const listAccountActivitiesIn = pageIn.extend({
  account_id: z.string().min(1),
  activity_types: z.array(z.string().min(1)).optional(),
  activity_sub_type: z.array(z.string().min(1)).optional(),
  start_time: z.string().optional(),
  end_time: z.string().optional(),
});

export type CreateVirtualAccountInput = z.input<typeof createVirtualAccountIn>;
export type UpdateVirtualAccountInput = z.input<typeof updateVirtualAccountIn>;
export type VirtualAccount = z.output<typeof virtualAccount>;
export type ListVirtualAccountsInput = z.input<typeof listVirtualAccountsIn>;
export type ListAccountActivitiesInput = z.input<typeof listAccountActivitiesIn>;
