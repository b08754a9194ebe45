import "server-only";
import { z } from "zod";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "@/lib/broker-enums";

export { ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS };

const address = z.object({
  country: z.string().min(1),
  state: z.string().optional(),
  city: z.string().min(1),
  street_address: z.string().min(1),
  postal_code: z.string().optional(),
});

/** first_name, last_name, middle_name, home_address and mail_address are required (middle_name may be empty). */
export const w8benSchema = z.object({
  treaty_country: z.string().optional(),
  tax_id: z.string().trim().min(1, "must not be empty when given").optional(),
  sign_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD")
    .optional(),
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  middle_name: z.string(),
  home_address: address,
  mail_address: address,
});

export const chinaConnectSchema = z.object({
  first_name: z.string().min(1),
  last_name: z.string().min(1),
  middle_name: z.string().optional(),
  id_type: z.enum(["ID_CARD", "PASSPORT", "CERT_INCORP", "LEI", "OTHER_OFFICIAL_ID_DOC"]),
  id_number: z.string().min(1),
  country_of_issuance: z.string().min(1),
});

const common = {
  client_request_id: z.string(),
  trading_permissions: z.array(z.enum(TRADING_PERMISSIONS)).min(1),
  option_level: z.enum(OPTION_LEVELS).optional(),
  commission_code: z.string().min(1).max(64).optional(),
  w8ben_info: w8benSchema.optional(),
  china_connect_investor_info: chinaConnectSchema.optional(),
};

export const createSchema = z.object({
  ...common,
  belong_account_id: z.string().min(1),
  external_account_number: z.string().regex(/^[A-Za-z0-9]{1,10}$/, "1 to 10 letters or digits"),
  account_type: z.enum(ACCOUNT_TYPES),
});

/** Update: account_id plus any field to change. account_type, belong_account_id and external_account_number are fixed. */
export const updateSchema = z.object({
  ...common,
  trading_permissions: common.trading_permissions.optional(),
  account_id: z.string().min(1),
  account_type: z.enum(ACCOUNT_TYPES).optional(),
  belong_account_id: z.string().optional(),
  external_account_number: z.string().optional(),
  // sandbox extension: lets the back office suspend, freeze or close an account
  account_status: z.enum(ACCOUNT_STATUSES).optional(),
});
