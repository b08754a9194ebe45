import { emptyAddress, type CreateAccountValues } from "@/lib/schemas/virtual-account";

/** A valid create-form value set; tests override what they exercise. */
export function blankValues(overrides: Partial<CreateAccountValues> = {}): CreateAccountValues {
  const home = { ...emptyAddress(), country: "hk", city: "Hong Kong", street_address: "1 Harbour Road", postal_code: "999077" };
  return {
    client_request_id: "va_test0001",
    account_type: "CASH",
    external_account_number: "T12345",
    trading_permissions: ["US_STOCK_NORMAL"],
    option_level: "",
    commission_code: "",
    w8ben_info: {
      first_name: "Mei",
      middle_name: "",
      last_name: "Chan",
      treaty_country: "HK",
      tax_id: "TX123456",
      sign_date: "2026-11-01",
      home_address: home,
      mail_same_as_home: true,
      mail_address: emptyAddress(),
    },
    china_connect_investor_info: { first_name: "", middle_name: "", last_name: "", id_type: "", id_number: "", country_of_issuance: "" },
    ...overrides,
  };
}

/** A valid create-form value set with China Connect trading and its investor's details; tests override the details they exercise. */
export function chinaConnectValues(investor: Partial<CreateAccountValues["china_connect_investor_info"]> = {}): CreateAccountValues {
  return blankValues({
    trading_permissions: ["US_STOCK_NORMAL", "CN_STOCK_NORMAL"],
    china_connect_investor_info: {
      first_name: "Mei",
      middle_name: "",
      last_name: "Chan",
      id_type: "PASSPORT",
      id_number: "P1",
      country_of_issuance: "CN",
      ...investor,
    },
  });
}
