import { describe, expect, it } from "vitest";
import { ORDER_STATUS_LABELS } from "@/components/orders/order-labels";
import { APPROVAL_STATUS_LABELS } from "@/lib/schemas/approvals";
import { MOVEMENT_STATUS_LABELS } from "@/lib/schemas/movement-list";

// Issue 25 item 9: the desk said "Declined" on a movement and "Rejected" on its approval request for the same
// decision. One word per meaning: "Rejected" (the upstream's refusal), "Rejected by approver" (a checker's).
describe("status words", () => {
  it("a checker's rejection is worded as the approvals pages word it, on the movement too", () => {
    expect(APPROVAL_STATUS_LABELS.rejected).toBe("Rejected");
    expect(MOVEMENT_STATUS_LABELS.DECLINED).toBe("Rejected by approver");
  });

  it("no label says Declined, and the upstream's refusal keeps its own word apart from the checker's", () => {
    const labels = [
      ...Object.values(MOVEMENT_STATUS_LABELS),
      ...Object.values(APPROVAL_STATUS_LABELS),
      ...Object.values(ORDER_STATUS_LABELS),
    ];
    expect(labels.filter((l) => /declin/i.test(l))).toEqual([]);
    expect(MOVEMENT_STATUS_LABELS.REJECTED).toBe("Rejected");
    expect(MOVEMENT_STATUS_LABELS.REJECTED).not.toBe(MOVEMENT_STATUS_LABELS.DECLINED);
  });
});
