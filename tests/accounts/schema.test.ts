import { describe, expect, it } from "vitest";
import { blankValues, chinaConnectValues } from "./fixtures";
import {
  createAccountSchema,
  latestToday,
  toUpstreamFields,
  updateAccountSchema,
  w8benLapsed,
  w8benValidUntil,
} from "@/lib/schemas/virtual-account";

/** The day after the latest date anywhere on Earth: in the future for everyone. */
const latestTomorrow = () => new Date(Date.parse(`${latestToday()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
import { searchFilter, parseAccountListParams } from "@/lib/schemas/account-list-params";

const errorsOf = (value: unknown, schema = createAccountSchema) => {
  const r = schema.safeParse(value);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("virtual account form schema (shared by the form and the actions)", () => {
  it("accepts a complete account", () => {
    expect(createAccountSchema.safeParse(blankValues()).success).toBe(true);
  });

  it("requires an option level when US options are granted, and only then", () => {
    const v = blankValues({ trading_permissions: ["US_STOCK_NORMAL", "US_OPTION_NORMAL"], option_level: "" });
    expect(errorsOf(v)).toHaveProperty("option_level");
    expect(errorsOf({ ...v, option_level: "LV2" })).toEqual({});
    expect(errorsOf(blankValues({ option_level: "" }))).toEqual({});
  });

  it("requires every W-8BEN member: names, signature date, home address", () => {
    const v = blankValues();
    v.w8ben_info.last_name = "";
    v.w8ben_info.sign_date = "";
    v.w8ben_info.home_address.city = "";
    v.w8ben_info.home_address.country = "Hong Kong";
    expect(Object.keys(errorsOf(v)).sort()).toEqual([
      "w8ben_info.home_address.city",
      "w8ben_info.home_address.country",
      "w8ben_info.last_name",
      "w8ben_info.sign_date",
    ]);
  });

  it("refuses what a tax form cannot hold: emoji, invisible and bidirectional characters, symbols in names", () => {
    const named = (first_name: string, last_name = "Chan") =>
      errorsOf(blankValues({ w8ben_info: { ...blankValues().w8ben_info, first_name, last_name } }));
    for (const bad of ["Mei😀", "Mei\u200B", "Mei\u202Eabc", "Me\u0000i", "Me\u2028i", "M3i", "🇬🇧", "Mei\uFE0F"]) {
      expect(named(bad), JSON.stringify(bad)).toHaveProperty(["w8ben_info.first_name"]);
    }
    for (const ok of ["Zoë", "Núñez", "O'Brien", "Anne-Marie", "J. R.", "Øystein", "美玲", "Mary Ann", "Zoe\u0308"]) {
      expect(named(ok), ok).toEqual({});
    }
    const v = blankValues();
    v.w8ben_info.home_address.street_address = "1 Harbour Road \u202E";
    v.w8ben_info.tax_id = "TX\u200D1";
    expect(Object.keys(errorsOf(v)).sort()).toEqual(["w8ben_info.home_address.street_address", "w8ben_info.tax_id"]);
    const cn = chinaConnectValues({ first_name: "Mei🙂" });
    expect(Object.keys(errorsOf(cn))).toEqual(["china_connect_investor_info.first_name"]);
  });

  it("takes a signature date that exists and is not in the future, and tells when a W-8BEN has lapsed", () => {
    const signed = (sign_date: string) => errorsOf(blankValues({ w8ben_info: { ...blankValues().w8ben_info, sign_date } }));
    for (const bad of ["2099-12-31", "2026-02-30", "1850-01-01", "01/02/2026", latestTomorrow()])
      expect(signed(bad), bad).toHaveProperty(["w8ben_info.sign_date"]);
    expect(signed(new Date().toISOString().slice(0, 10))).toEqual({});
    expect(signed("2020-02-29")).toEqual({});
    expect(w8benValidUntil("2022-05-10")).toBe("2025-12-31");
    expect(w8benLapsed("2022-05-10", new Date("2025-12-31T12:00:00Z"))).toBe(false);
    expect(w8benLapsed("2022-05-10", new Date("2026-01-01T00:00:00Z"))).toBe(true);
  });

  it("takes only assigned ISO 3166-1 country codes, in any case", () => {
    const v = blankValues();
    v.w8ben_info.treaty_country = "ZZ";
    v.w8ben_info.home_address.country = "XX";
    v.w8ben_info.mail_same_as_home = false;
    v.w8ben_info.mail_address = { ...v.w8ben_info.home_address, country: "UK" };
    expect(Object.keys(errorsOf(v)).sort()).toEqual([
      "w8ben_info.home_address.country",
      "w8ben_info.mail_address.country",
      "w8ben_info.treaty_country",
    ]);
    for (const ok of ["gb", "HK", "SG", "US", "de"]) {
      const w = blankValues();
      w.w8ben_info.treaty_country = ok;
      w.w8ben_info.home_address.country = ok;
      expect(errorsOf(w), ok).toEqual({});
    }
    const cn = chinaConnectValues({ country_of_issuance: "XX" });
    expect(Object.keys(errorsOf(cn))).toEqual(["china_connect_investor_info.country_of_issuance"]);
  });

  it("checks the mailing address only when it is not the home address", () => {
    const v = blankValues();
    expect(errorsOf(v)).toEqual({}); // mail fields empty but "same as home"
    v.w8ben_info.mail_same_as_home = false;
    expect(Object.keys(errorsOf(v))).toEqual(
      expect.arrayContaining(["w8ben_info.mail_address.street_address", "w8ben_info.mail_address.city"]),
    );
  });

  it("takes an external account number of 1 to 10 letters or digits", () => {
    for (const ok of ["1", "A1B2C3D4E5", "9999999999"]) expect(errorsOf(blankValues({ external_account_number: ok }))).toEqual({});
    for (const bad of ["", "12345678901", "12-34", "12 34"])
      expect(errorsOf(blankValues({ external_account_number: bad }))).toHaveProperty("external_account_number");
  });

  it("asks for China Connect details only with CN trading", () => {
    const v = blankValues({ trading_permissions: ["US_STOCK_NORMAL", "CN_STOCK_NORMAL"] });
    expect(Object.keys(errorsOf(v))).toEqual(
      expect.arrayContaining(["china_connect_investor_info.first_name", "china_connect_investor_info.id_type"]),
    );
    expect(toUpstreamFields(blankValues())).not.toHaveProperty("china_connect_investor_info");
  });

  it("update cannot carry account type or external number (not in the schema)", () => {
    const { account_type: _t, external_account_number: _e, ...rest } = blankValues();
    const parsed = updateAccountSchema.parse({ ...rest, account_id: "A1", account_type: "MARGIN", external_account_number: "X" });
    expect(parsed).not.toHaveProperty("account_type");
    expect(parsed).not.toHaveProperty("external_account_number");
  });

  it("builds the wire body: mail address copied from home, empty choices left out", () => {
    const body = toUpstreamFields(blankValues({ option_level: "LV2" }));
    expect(body.w8ben_info.mail_address).toEqual(body.w8ben_info.home_address);
    expect(body.option_level).toBe("LV2");
    expect(toUpstreamFields(blankValues())).not.toHaveProperty("option_level");
    expect(toUpstreamFields(blankValues())).not.toHaveProperty("commission_code");
    expect(body.w8ben_info.home_address.country).toBe("HK");
  });
});

describe("list URL state", () => {
  it("falls back to defaults on bad values", () => {
    const p = parseAccountListParams(new URLSearchParams("size=7&status=NOPE&level=LV2&sort=evil.asc"));
    expect(p).toMatchObject({ size: 25, status: undefined, level: "LV2", sort: undefined, by: "auto" });
  });
  it("guesses what the search box means", () => {
    expect(searchFilter("VBD1000001", "auto")).toEqual({ field: "account_number", value: "VBD1000001" });
    expect(searchFilter("1000001", "auto")).toEqual({ field: "external_account_number", value: "1000001" });
    expect(searchFilter("Olivia Chan", "auto")).toEqual({ field: "name", value: "Olivia Chan" });
    expect(searchFilter("1000001", "name")).toEqual({ field: "name", value: "1000001" });
    expect(searchFilter("vbd1000030", "auto")).toEqual({ field: "account_number", value: "VBD1000030" });
    expect(searchFilter("vbd1000030", "account_number")).toEqual({ field: "account_number", value: "VBD1000030" });
    expect(searchFilter("zoë núñez", "auto")).toEqual({ field: "name", value: "zoë núñez" });
  });
});
