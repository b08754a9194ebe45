import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CHECK_FIELDS, feedbackOf } from "@/components/form/action-feedback";
import "@/lib/schemas/messages";
import { createStaffSchema } from "@/lib/schemas/staff";

const messagesOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("validation messages are written for people", () => {
  it("the staff form says how long a name may be", () => {
    const errors = messagesOf(createStaffSchema, {
      email: "a@b.test",
      name: "x".repeat(121),
      role: "support",
      password: "a-long-enough-password",
    });
    expect(errors).toEqual(["Use at most 120 characters"]);
  });

  it("replaces zod's defaults wherever a schema gives no message of its own", () => {
    expect(messagesOf(z.string().max(3), "abcd")).toEqual(["Use at most 3 characters"]);
    expect(messagesOf(z.string().min(5), "ab")).toEqual(["Use at least 5 characters"]);
    expect(messagesOf(z.string().min(1), "")).toEqual(["Enter a value"]);
    expect(messagesOf(z.array(z.string()).min(1), [])).toEqual(["Choose at least one"]);
    expect(messagesOf(z.enum(["a", "b"]), "c")).toEqual(["Choose one of the options"]);
    expect(messagesOf(z.string(), undefined)).toEqual(["Enter a value"]);
    expect(messagesOf(z.email(), "nope")).toEqual(["Enter a valid email address"]);
    expect(messagesOf(z.string().max(3, "Mine"), "abcd")).toEqual(["Mine"]);
    for (const m of [...messagesOf(z.number().max(2), 3), ...messagesOf(z.string().uuid(), "x")])
      expect(m).not.toMatch(/expected|Too big|Invalid/);
  });

  it("a message already on a field is not repeated in the banner", () => {
    const fb = feedbackOf({
      kind: "result",
      result: {
        ok: false,
        code: "STAFF_EXISTS",
        serverError: "A staff user with this email already exists",
        fieldErrors: { email: "A staff user with this email already exists" },
      },
    });
    expect(fb.fieldErrors).toEqual([["email", "A staff user with this email already exists"]]);
    expect(fb.banner).toEqual({ tone: "error", text: CHECK_FIELDS });
  });
});
