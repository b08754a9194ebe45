import { describe, expect, it } from "vitest";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import { AppError } from "@/lib/errors";
import { fieldErrorsFromUpstream as generic, toActionError } from "@/server/action-kit/upstream-error";
import { BrokerError } from "@/server/broker/errors";

/** The account form's map through the generic mapping, as the account actions use it. */
const fieldErrorsFromUpstream = (code: string, message: string, opts: { mailSameAsHome?: boolean } = {}) =>
  generic(code, message, accountFieldMap(opts));
const b417 = (errorCode: string, message: string) => new BrokerError({ status: 417, errorCode, message, requestId: "req-1" });

describe("417 → field errors", () => {
  it("puts an option level above the master's on option_level, with the broker's words", () => {
    const msg = "option_level LV4 exceeds the master account's level LV3.";
    expect(fieldErrorsFromUpstream("OPTION_LEVEL_EXCEEDS_MASTER", msg)).toEqual({ option_level: msg });
  });

  it("puts a missing W-8BEN member on that member", () => {
    expect(fieldErrorsFromUpstream("ILLEGAL_PARAMETER", "w8ben_info.last_name: Too small: expected string to have >=1 characters")).toEqual(
      {
        "w8ben_info.last_name": "Required by the broker",
      },
    );
    expect(
      fieldErrorsFromUpstream("ILLEGAL_PARAMETER", "w8ben_info.home_address.city: Invalid input: expected string, received undefined"),
    ).toEqual({
      "w8ben_info.home_address.city": "Required by the broker",
    });
  });

  it("moves mailing-address errors to the home address when the form said 'same as home'", () => {
    expect(fieldErrorsFromUpstream("ILLEGAL_PARAMETER", "w8ben_info.mail_address.city: bad", { mailSameAsHome: true })).toHaveProperty([
      "w8ben_info.home_address.city",
    ]);
  });

  it("maps a duplicate external number and array members", () => {
    expect(fieldErrorsFromUpstream("DUPLICATE_EXTERNAL_ACCOUNT_NUMBER", "external_account_number 42 is already used.")).toEqual({
      external_account_number: "This external account number is already used",
    });
    expect(fieldErrorsFromUpstream("ILLEGAL_PARAMETER", "trading_permissions.1: Invalid option")).toHaveProperty("trading_permissions");
  });

  it("gives no field for messages that name none, or name a field the form lacks", () => {
    expect(fieldErrorsFromUpstream("ACCOUNT_CLOSED", "Account VBD42 is CLOSED.")).toBeUndefined();
    expect(fieldErrorsFromUpstream("ILLEGAL_PARAMETER", "belong_account_id: Required")).toBeUndefined();
  });

  it("turns a broker error into an action error carrying the request id; 5xx keeps the safe message", () => {
    const e = toActionError(b417("OPTION_LEVEL_EXCEEDS_MASTER", "too high"), { fields: accountFieldMap() }) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ code: "OPTION_LEVEL_EXCEEDS_MASTER", requestId: "req-1", fieldErrors: { option_level: "too high" } });
    const down = toActionError(new BrokerError({ status: 503, errorCode: "SERVICE_NOT_AVAILABLE", message: "x" })) as AppError;
    expect(down.fieldErrors).toBeUndefined();
    expect(down.userMessage).toMatch(/temporarily unavailable/);
    const timeout = toActionError(new BrokerError({ status: 0, errorCode: "TIMEOUT", message: "x" }), { idempotent: true }) as AppError;
    expect(timeout.userMessage).toMatch(/same request, so it cannot be applied twice/);
    expect((toActionError(b417("OPTION_LEVEL_EXCEEDS_MASTER", "too high")) as AppError).fieldErrors).toBeUndefined(); // no map, no fields
    const plain = new Error("boom");
    expect(toActionError(plain)).toBe(plain);
  });
});
