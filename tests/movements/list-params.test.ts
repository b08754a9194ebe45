import { describe, expect, it } from "vitest";
import { movementListParams, movementTypeLabel } from "@/lib/schemas/movement-list";

describe("movement list params", () => {
  it("parses the filters; a hand-edited bad value falls back to no filter", () => {
    const p = movementListParams.parse(
      new URLSearchParams(
        "type=DEPOSIT&status=completed&account=VA-1&currency=usd&requester=Ops@Brokerdesk.Test&from=2026-11-01&view=not_final&size=25",
      ),
    );
    expect(movementListParams.filters(p)).toEqual({
      type: "DEPOSIT",
      status: "COMPLETED",
      account: "VA-1",
      currency: "USD",
      requester: "ops@brokerdesk.test",
      from: "2026-11-01",
      to: undefined,
      view: "not_final",
    });
    const bad = movementListParams.parse(
      new URLSearchParams("type=LOAN&account=a%20b&currency=DOLLARS&from=2026-13-45&view=everything&size=7"),
    );
    expect(movementListParams.filters(bad)).toEqual({
      type: undefined,
      status: undefined,
      account: undefined,
      currency: undefined,
      requester: undefined,
      from: undefined,
      to: undefined,
      view: undefined,
    });
    expect(bad.size).toBe(50);
  });

  it("names a row: funding by its direction, an unknown kind raw", () => {
    expect(movementTypeLabel("INSTANT_FUNDING", "WITHDRAWAL")).toBe("Withdrawal");
    expect(movementTypeLabel("FX_EXCHANGE", null)).toBe("FX request");
    expect(movementTypeLabel("LOAN", null)).toBe("unknown (LOAN)");
  });
});
