import "server-only";
import type { UpstreamFieldMap } from "@/server/action-kit/upstream-error";

/**
 * The account form's field map for upstream rule violations (server/action-kit/upstream-error.ts does the rest), so
 * an operator sees "above the master account's level" under the option level, not a generic failure.
 */
const CODE_FIELDS: Record<string, { field: string; message?: string }> = {
  OPTION_LEVEL_EXCEEDS_MASTER: { field: "option_level" },
  OPTION_LEVEL_REQUIRED: { field: "option_level", message: "Choose an option level: US options are granted" },
  DUPLICATE_EXTERNAL_ACCOUNT_NUMBER: { field: "external_account_number", message: "This external account number is already used" },
};

/** Wire paths the form has an input for (dotted, as react-hook-form names them). */
const FORM_FIELD =
  /^(external_account_number|account_type|trading_permissions|option_level|commission_code|w8ben_info\.(first_name|middle_name|last_name|treaty_country|tax_id|sign_date|(home|mail)_address\.(country|state|city|street_address|postal_code))|china_connect_investor_info\.(first_name|middle_name|last_name|id_type|id_number|country_of_issuance))$/;

/**
 * A missing W-8BEN member lands on that member; a whole missing address on its street, a whole missing block on
 * its first name. `mailSameAsHome` moves mailing-address errors to the home address the operator actually typed.
 */
export function accountFieldMap(opts: { mailSameAsHome?: boolean } = {}): UpstreamFieldMap {
  return {
    codes: CODE_FIELDS,
    field(wirePath) {
      let path = wirePath;
      if (opts.mailSameAsHome) path = path.replace("w8ben_info.mail_address.", "w8ben_info.home_address.");
      if (/^w8ben_info\.(home|mail)_address$/.test(path)) path = `${path}.street_address`;
      if (path === "w8ben_info" || path === "china_connect_investor_info") path = `${path}.first_name`;
      return FORM_FIELD.test(path) ? path : undefined;
    },
  };
}
