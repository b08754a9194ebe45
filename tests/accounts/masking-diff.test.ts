import { describe, expect, it } from "vitest";
import { diffAccount } from "@/lib/schemas/virtual-account-diff";
import { formValuesFromAccount, type AccountView } from "@/lib/schemas/virtual-account-view";
import { MASK, maskAccount, maskValue, piiOf } from "@/server/accounts/masking";
import { blankValues } from "./fixtures";

const address = { country: "HK", state: "HK Island", city: "Hong Kong", street_address: "1 Harbour Road", postal_code: "999077" };
const account: Omit<AccountView, "masked"> = {
  account_id: "A1",
  account_number: "VBD42",
  external_account_number: "42",
  account_type: "CASH",
  account_status: "ACTIVE",
  trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"],
  option_level: "LV2",
  commission_code: "COMMISSION_GROUP_1",
  w8ben_info: {
    first_name: "Mei",
    middle_name: "",
    last_name: "Chan",
    treaty_country: "HK",
    tax_id: "TX70000131",
    sign_date: "2026-11-01",
    home_address: address,
    mail_address: address,
  },
  china_connect_investor_info: {
    first_name: "Mei",
    last_name: "Chan",
    id_type: "PASSPORT",
    id_number: "P9000001",
    country_of_issuance: "HK",
  },
};

describe("PII masking (server side)", () => {
  it("leaves everything visible with pii:view", () => {
    expect(maskAccount(account, true)).toEqual({ ...account, masked: false });
  });

  it("masks tax id, street, city, state, postal code and the China Connect ID; keeps names and countries", () => {
    const m = maskAccount(account, false);
    expect(m.masked).toBe(true);
    expect(m.w8ben_info?.tax_id).toBe(`${MASK}31`);
    expect(m.w8ben_info?.home_address).toEqual({ country: "HK", state: MASK, city: MASK, street_address: MASK, postal_code: MASK });
    expect(m.w8ben_info?.mail_address?.street_address).toBe(MASK);
    expect(m.w8ben_info?.first_name).toBe("Mei");
    expect(m.china_connect_investor_info?.id_number).toBe(`${MASK}01`);
    const json = JSON.stringify(m);
    for (const secret of ["TX70000131", "1 Harbour Road", "999077", "P9000001"]) expect(json).not.toContain(secret);
  });

  it("shows no trailing characters of short values", () => {
    expect(maskValue("AB12")).toBe(MASK);
    expect(maskValue("")).toBe("");
    expect(maskValue(undefined)).toBeUndefined();
  });

  it("reveal returns exactly the masked fields", () => {
    expect(piiOf(account)).toEqual({
      tax_id: "TX70000131",
      home_address: address,
      mail_address: address,
      china_connect_id_number: "P9000001",
    });
  });
});

describe("update diff", () => {
  const before = formValuesFromAccount({ ...account, masked: false }, "vau_1");

  it("is empty when nothing changes, even if 'same as home' replaces a typed copy", () => {
    expect(before.w8ben_info.mail_same_as_home).toBe(true);
    expect(diffAccount(before, { ...before, w8ben_info: { ...before.w8ben_info, mail_same_as_home: false } })).toEqual([]);
  });

  it("lists each changed field with a label, before and after", () => {
    const after = { ...before, option_level: "LV3" as const, w8ben_info: { ...before.w8ben_info, last_name: "Chen" } };
    expect(diffAccount(before, after)).toEqual([
      { path: "option_level", label: "Option level", before: "LV2", after: "LV3" },
      { path: "w8ben_info.last_name", label: "W-8BEN last name", before: "Chan", after: "Chen" },
    ]);
  });

  it("shows permissions by name and ignores their order", () => {
    const reordered = { ...before, trading_permissions: ["US_OPTION_NORMAL", "US_STOCK_NORMAL"] as typeof before.trading_permissions };
    expect(diffAccount(before, reordered)).toEqual([]);
    const fewer = { ...before, trading_permissions: ["US_STOCK_NORMAL"] as typeof before.trading_permissions };
    const d = diffAccount(before, fewer);
    // the level stays: an update cannot clear it, so the diff does not pretend it would
    expect(d).toEqual([{ path: "trading_permissions", label: "Trading permissions", before: "US stocks, US options", after: "US stocks" }]);
  });

  it("does not list China Connect details as removed when CN trading is dropped (the upstream keeps them)", () => {
    const cn = { ...before, trading_permissions: ["US_STOCK_NORMAL", "CN_STOCK_NORMAL"] as typeof before.trading_permissions };
    const d = diffAccount(cn, { ...cn, trading_permissions: ["US_STOCK_NORMAL"] });
    expect(d.map((x) => x.path)).toEqual(["trading_permissions"]);
  });

  it("labels address parts", () => {
    const v = blankValues();
    const w = { ...v.w8ben_info, home_address: { ...v.w8ben_info.home_address, city: "Kowloon" } };
    expect(diffAccount(v, { ...v, w8ben_info: w })[0].label).toBe("Home address city");
  });
});
