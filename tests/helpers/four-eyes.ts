import { beforeAll } from "vitest";
import type { saveApprovalRuleAction } from "@/server/actions/approvals";
import { useProcessFixture, type EventsFixture } from "../events/helpers";
import { disableAllApprovalRules } from "./approval-rules";
import type { TestEngine } from "./engines";
import { sessionPerson } from "./staff";

/**
 * The people of a four-eyes test, ids from `first` on: a maker and two checkers (operations), an admin, compliance
 * (reads requests, decides none) and support.
 */
export const fourEyesStaff = (first: number) => ({
  MAKER: sessionPerson(first, "operations"),
  CHECKER: sessionPerson(first + 1, "operations"),
  CHECKER2: sessionPerson(first + 2, "operations"),
  ADMIN: sessionPerson(first + 3, "admin"),
  COMPLIANCE: sessionPerson(first + 4, "compliance"),
  SUPPORT: sessionPerson(first + 5, "support"),
});

type RuleInput = Parameters<typeof saveApprovalRuleAction>[0];

/** An approval rule as the editor saves it: any currency and amount, one operations approver, unless said otherwise. */
export const approvalRule = (r: Partial<RuleInput> & Pick<RuleInput, "action">): RuleInput => ({
  currency: "",
  threshold: "",
  approversRequired: 1,
  approverRoles: ["operations"],
  ...r,
});

/**
 * useProcessFixture's fixture with every approval rule disabled before the block's tests, the defaults a fresh
 * database starts with included: for a test not about four-eyes, or one that states its own rules. The object
 * answered is filled in place once the fixture has started, so the block's tests and hooks read it directly.
 */
export function useFixtureWithoutRules(engine: TestEngine): EventsFixture {
  const fixture = useProcessFixture(engine);
  const f = {} as EventsFixture;
  beforeAll(async () => {
    Object.assign(f, fixture());
    await disableAllApprovalRules(f.db.engine);
  });
  return f;
}
