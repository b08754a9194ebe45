import { describe, expect, it, vi } from "vitest";
import { planToolCommands } from "@/cli/src/skills/plan";
import type { Skill } from "@/cli/src/skills/listing";
import { placeSkill } from "@/cli/src/skills/naming";
import { argSpecs, buildInput, kebab, parseArray, positionalSpec } from "@/cli/src/skills/schema-args";
import { skillListing } from "@/server/tools/skills";

/** The desk's input JSON Schemas as options, and the options back as the skill's input. */
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const listing = () => skillListing() as unknown as Skill[];
const specsOf = (name: string) => argSpecs(listing().find((s) => s.name === name)!.input_schema);
const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { code: string; exitCode: number; message: string };
  }
  throw new Error("expected a usage error");
};

describe("options from the real registry's schemas", () => {
  it("names each property in kebab case and keeps its type, choices and required flag", () => {
    const cancel = specsOf("cancel-order");
    expect(cancel.map((s) => [s.flag, s.kind, s.required])).toEqual([
      ["order-id", "string", true],
      ["reason-code", "string", true],
      ["reason-text", "string", false],
    ]);
    expect(cancel[1].choices).toEqual(["CUSTOMER_REQUEST", "WRONG_PRICE_OR_QUANTITY", "DUPLICATE", "RISK", "OTHER"]);
    expect(kebab("client_request_id")).toBe("client-request-id");
    expect(kebab("limitPrice")).toBe("limit-price");
  });

  it('sees through anyOf: numeric constants are numeric choices, an enum or "" is a string choice', () => {
    const size = specsOf("find-accounts").find((s) => s.property === "size")!;
    expect(size).toMatchObject({ kind: "number", choices: [10, 25, 50, 100] });
    expect(buildInput([size], { size: "25" })).toEqual({ size: 25 });
    expect(usage(() => buildInput([size], { size: "11" })).exitCode).toBe(2);

    const tif = specsOf("replace-order").find((s) => s.property === "timeInForce")!;
    expect(tif).toMatchObject({ kind: "string", choices: ["DAY", "GTC", "GTD", ""] });
    const category = specsOf("stock-noii-bars").find((s) => s.property === "category")!;
    expect(category).toMatchObject({ kind: "string", choices: ["US_STOCK"], default: "US_STOCK" });
  });

  it("parses integers within their bounds and refuses the rest", () => {
    const specs = specsOf("stock-gainers-losers");
    expect(buildInput(specs, { page_size: "50", page_index: "2" })).toEqual({ page_size: 50, page_index: 2 });
    expect(usage(() => buildInput(specs, { page_size: "201" })).message).toContain("above 200");
    expect(usage(() => buildInput(specs, { page_size: "1.5" })).message).toContain("whole number");
    expect(usage(() => buildInput(specs, { page_index: "0" })).message).toContain("below 1");
  });

  it("checks patterns and formats before sending", () => {
    expect(usage(() => buildInput(specsOf("get-order"), { order_id: "12a" })).message).toContain("--order-id");
    expect(usage(() => buildInput(specsOf("find-orders"), { from: "2026-02-30" })).message).toContain("YYYY-MM-DD");
    expect(buildInput(specsOf("find-orders"), { from: "2026-02-28" })).toEqual({ from: "2026-02-28" });
  });

  it("takes an array of objects as JSON, repeated or whole", () => {
    const specs = specsOf("watchlist-instruments-add");
    const instruments = specs.find((s) => s.property === "instruments")!;
    expect(instruments.kind).toBe("array");
    expect(instruments.item?.kind).toBe("object");
    const whole = buildInput(specs, { watchlist_id: "w1", instruments: ['[{"symbol":"AAPL","category":"US_STOCK"}]'] });
    const repeated = buildInput(specs, {
      watchlist_id: "w1",
      instruments: ['{"symbol":"AAPL","category":"US_STOCK"}', '{"symbol":"00700","category":"HK_STOCK"}'],
    });
    expect(whole.instruments).toEqual([{ symbol: "AAPL", category: "US_STOCK" }]);
    expect(repeated.instruments).toHaveLength(2);
    expect(usage(() => buildInput(specs, { watchlist_id: "w1", instruments: ["AAPL"] })).message).toContain("JSON");
  });

  it("merges --input under the options and names every required option missing", () => {
    const specs = specsOf("request-cash-journal");
    const base = { from_account: "a1", to_account: "a2", currency: "USD", amount: "1" };
    expect(buildInput(specs, { amount: "2.50" }, base, ["client_request_id"])).toEqual({ ...base, amount: "2.50" });
    const missing = usage(() => buildInput(specs, { currency: "USD" }, {}, ["client_request_id"]));
    expect(missing.exitCode).toBe(2);
    expect(missing.message).toBe("Missing --from-account, --to-account, --amount.");
    expect(usage(() => buildInput(specs, { currency: "EUR" }, base, ["client_request_id"])).message).toContain('"EUR" is not one of');
  });

  it("makes the first required id a positional argument, never the client_request_id", () => {
    expect(positionalSpec(specsOf("get-order"))?.property).toBe("order_id");
    expect(positionalSpec(specsOf("cancel-order"))?.property).toBe("orderId");
    expect(positionalSpec(specsOf("approve-request"))?.property).toBe("id");
    expect(positionalSpec(specsOf("request-cash-journal"))).toBeUndefined();
    expect(positionalSpec(specsOf("list-account-activities"))).toBeUndefined();
  });

  it("handles booleans, free JSON and scalar arrays of a schema it has not seen", () => {
    const specs = argSpecs({
      type: "object",
      properties: {
        include_closed: { type: "boolean" },
        filter: {},
        symbols: { type: "array", items: { type: "string", maxLength: 4 } },
        output: { type: "string" },
      },
    });
    expect(specs.map((s) => s.flag)).toEqual(["include-closed", "filter", "symbols", "arg-output"]);
    expect(buildInput(specs, { include_closed: false, filter: '{"a":1}', symbols: ["AAPL", '["MSFT","TSLA"]'], output: "x" })).toEqual({
      include_closed: false,
      filter: { a: 1 },
      symbols: ["AAPL", "MSFT", "TSLA"],
      output: "x",
    });
    expect(usage(() => parseArray(specs[2], ["TOOLONG"])).message).toContain("at most 4");
  });
});

describe("the command tree", () => {
  it("gives every skill of the registry one command, the desk's under their chosen names", () => {
    const plans = planToolCommands(listing(), new Set(["login", "profile", "help"]));
    const paths = plans.map((p) => p.path.join(" "));
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(plans.map((p) => p.skill.name))).toEqual(new Set(listing().map((s) => s.name)));
    expect(paths).toEqual(
      expect.arrayContaining([
        "accounts list",
        "accounts get",
        "orders list",
        "orders get",
        "orders cancel",
        "orders replace",
        "movements list",
        "movements cash-journal",
        "approvals list",
        "approvals approve",
        "approvals reject",
        "activities list",
        "activities export",
        "alerts list",
        "stream health",
        "stock noii-bars",
        "instrument futures-product-class",
        "watchlist instruments-add",
      ]),
    );
  });

  it("places a skill it has never seen by its name's shape", () => {
    expect(placeSkill("get-movement")).toEqual({ group: "movements", command: "get" });
    expect(placeSkill("find-alerts")).toEqual({ group: "alerts", command: "list" });
    expect(placeSkill("watchlist-share")).toEqual({ group: "watchlist", command: "share" });
    expect(placeSkill("rebuild-read-model")).toEqual({ command: "rebuild-read-model" });
  });

  it("keeps a clashing skill reachable under its own name", () => {
    const skill = (name: string): Skill => ({
      name,
      tool: name,
      title: name,
      description: "",
      read_only: true,
      destructive: false,
      input_schema: { type: "object", properties: {} },
      output_schema: { type: "object", properties: {} },
    });
    const plans = planToolCommands([skill("list-orders"), skill("find-orders"), skill("login")], new Set(["login"]));
    expect(plans.map((p) => p.path.join(" "))).toEqual(["orders list", "orders find-orders", "skill-login"]);
  });
});
