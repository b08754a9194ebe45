import { describe, expect, it } from "vitest";
import {
  attemptAction,
  createInFlightGuard,
  feedbackOf,
  FORM_NETWORK_ERROR,
  NETWORK_ERROR,
  type ActionOutcome,
} from "@/components/form/action-feedback";
import { actionMessage, type ActionResult } from "@/lib/errors";

const result = <T>(r: ActionResult<T>): ActionOutcome<T> => ({ kind: "result", result: r });

describe("feedbackOf: an action's outcome as field errors and one banner", () => {
  it("maps field errors onto their dotted names and shows the server message once", () => {
    const fb = feedbackOf(
      result({
        ok: false,
        code: "VALIDATION",
        serverError: "Check the highlighted fields.",
        fieldErrors: { email: "Taken", "w8ben_info.home_address.city": "Enter the city" },
      }),
    );
    expect(fb.fieldErrors).toEqual([
      ["email", "Taken"],
      ["w8ben_info.home_address.city", "Enter the city"],
    ]);
    expect(fb.banner).toEqual({ tone: "error", text: "Check the highlighted fields." });
  });

  it("says an error of a field the form does not show in the banner, never 'check the highlighted fields' alone", () => {
    const failure = result({
      ok: false,
      code: "VALIDATION",
      serverError: "Check the highlighted fields.",
      fieldErrors: { client_order_id: "Reload the ticket: its order id is invalid" },
    });
    const onForm = { shownOnForm: (name: string) => ["quantity", "legs"].includes(name.split(".")[0]) };
    expect(feedbackOf(failure, onForm).banner).toEqual({ tone: "error", text: "Reload the ticket: its order id is invalid" });
    const both = result({
      ok: false,
      code: "VALIDATION",
      serverError: "Check the highlighted fields.",
      fieldErrors: { "legs.0.ratio": "Whole contracts", client_order_id: "Reload the ticket: its order id is invalid" },
    });
    expect(feedbackOf(both, onForm).banner?.text).toBe("Check the highlighted fields. Reload the ticket: its order id is invalid");
  });

  it("puts a form-level rule in the banner, not on a field", () => {
    const r: ActionResult<never> = {
      ok: false,
      code: "VALIDATION",
      serverError: "Check the highlighted fields.",
      fieldErrors: { _form: "Nothing to change" },
    };
    const fb = feedbackOf(result(r));
    expect(fb.fieldErrors).toEqual([]);
    expect(fb.banner?.text).toBe("Nothing to change");
    expect(fb.banner?.text).toBe(actionMessage(r));
  });

  it("shows a failure without field errors as the banner alone", () => {
    const fb = feedbackOf(result({ ok: false, code: "FORBIDDEN", serverError: "You do not have permission to do this." }));
    expect(fb).toEqual({ fieldErrors: [], banner: { tone: "error", text: "You do not have permission to do this." } });
  });

  it("shows a success banner only when the form asks for one, from the data if it likes", () => {
    expect(feedbackOf(result({ ok: true, data: { email: "a@b.test" } })).banner).toBeUndefined();
    expect(feedbackOf(result({ ok: true, data: { email: "a@b.test" } }), { success: (d) => `${d.email} can now sign in.` }).banner).toEqual(
      {
        tone: "success",
        text: "a@b.test can now sign in.",
      },
    );
  });

  it("says the server could not be reached when the call itself threw", () => {
    const outcome: ActionOutcome<unknown> = { kind: "unreachable", error: new TypeError("Failed to fetch") };
    expect(feedbackOf(outcome).banner).toEqual({ tone: "error", text: NETWORK_ERROR });
    expect(feedbackOf(outcome, { networkError: FORM_NETWORK_ERROR }).banner?.text).toMatch(/could not be reached.*entries are kept/);
  });
});

describe("attemptAction", () => {
  it("returns the action's answer", async () => {
    expect(await attemptAction(async () => ({ ok: true as const, data: 1 }))).toEqual({ kind: "result", result: { ok: true, data: 1 } });
  });

  it("turns a throw into unreachable", async () => {
    const outcome = await attemptAction(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(outcome.kind).toBe("unreachable");
  });

  it("lets pass-through errors (redirects) out", async () => {
    const redirect = Object.assign(new Error("NEXT_REDIRECT"), { digest: "NEXT_REDIRECT;push;/x;307;" });
    const passThrough = (e: unknown) => {
      if ((e as { digest?: string }).digest?.startsWith("NEXT_REDIRECT")) throw e;
    };
    await expect(attemptAction(() => Promise.reject(redirect), passThrough)).rejects.toBe(redirect);
  });
});

describe("createInFlightGuard", () => {
  it("runs a second submit while the first is on its way as nothing", async () => {
    const guard = createInFlightGuard();
    let calls = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<string>((resolve) => {
        calls += 1;
        release = () => resolve("sent");
      });
    const first = guard.run(slow);
    expect(guard.busy).toBe(true);
    const second = await guard.run(slow);
    expect(second).toEqual({ ran: false });
    expect(calls).toBe(1);
    release();
    expect(await first).toEqual({ ran: true, value: "sent" });
    expect(guard.busy).toBe(false);
  });

  it("lets the next submit through after a failure", async () => {
    const guard = createInFlightGuard();
    await expect(guard.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(guard.busy).toBe(false);
    expect(await guard.run(async () => 2)).toEqual({ ran: true, value: 2 });
  });
});
