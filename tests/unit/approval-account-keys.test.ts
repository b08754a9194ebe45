import { describe, expect, it } from "vitest";
import { accountUpdateRuleKeys } from "@/server/accounts/update";

const line = (path: string, before: string, after: string) => ({ path, label: path, before, after });

describe("the approval rule keys of an account update", () => {
  it("an option level raised to LV3 or LV4 only", () => {
    expect(accountUpdateRuleKeys([line("option_level", "LV2", "LV3")])).toEqual(["accounts.option_level_raise"]);
    expect(accountUpdateRuleKeys([line("option_level", "—", "LV4")])).toEqual(["accounts.option_level_raise"]);
    expect(accountUpdateRuleKeys([line("option_level", "LV3", "LV4")])).toEqual(["accounts.option_level_raise"]);
    expect(accountUpdateRuleKeys([line("option_level", "LV1", "LV2")])).toEqual([]);
    expect(accountUpdateRuleKeys([line("option_level", "LV4", "LV3")])).toEqual([]);
  });

  it("any W-8BEN field; both at once; nothing else", () => {
    expect(accountUpdateRuleKeys([line("w8ben_info.home_address.city", "A", "B")])).toEqual(["accounts.w8ben_change"]);
    expect(accountUpdateRuleKeys([line("option_level", "LV2", "LV3"), line("w8ben_info.tax_id", "1", "2")])).toEqual([
      "accounts.option_level_raise",
      "accounts.w8ben_change",
    ]);
    expect(accountUpdateRuleKeys([line("commission_code", "COMMISSION_GROUP_1", "COMMISSION_GROUP_2")])).toEqual([]);
  });
});
