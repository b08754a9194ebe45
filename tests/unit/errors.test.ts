import { describe, expect, it } from "vitest";
import { AppError, NotFoundError, tryRead, userMessageOf } from "@/lib/errors";

/** What a page says when a read it can do without fails: the error's own safe message, never an internal one. */
describe("a failure's message for a page", () => {
  it("is an AppError's safe message, and the fallback for anything else", () => {
    expect(userMessageOf(new AppError("UPSTREAM", "502 from /accounts", "The broker could not be reached."), "fallback")).toBe(
      "The broker could not be reached.",
    );
    expect(userMessageOf(new NotFoundError("No such account."), "fallback")).toBe("No such account.");
    expect(userMessageOf(new Error("ECONNRESET 10.0.0.1:443"), "The account could not be read.")).toBe("The account could not be read.");
    expect(userMessageOf("thrown string", "fallback")).toBe("fallback");
  });

  it("tryRead gives the value, or the problem in place of a throw", async () => {
    expect(await tryRead(Promise.resolve(42), "fallback")).toEqual({ value: 42 });
    expect(await tryRead(Promise.reject(new Error("socket hang up")), "The broker could not be reached.")).toEqual({
      problem: "The broker could not be reached.",
    });
    expect(await tryRead(Promise.reject(new AppError("X", "internal", "Shown to people.")), "fallback")).toEqual({
      problem: "Shown to people.",
    });
  });
});
