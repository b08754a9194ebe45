import "server-only";
import { revalidatePath } from "next/cache";
import { OPTION_LEVELS } from "@/lib/broker-enums";
import { AppError } from "@/lib/errors";
import { diffAccount, type DiffLine } from "@/lib/schemas/virtual-account-diff";
import { formValuesFromAccount, type AccountView } from "@/lib/schemas/virtual-account-view";
import { toUpstreamFields, updateAccountSchema, type UpdateAccountValues } from "@/lib/schemas/virtual-account";
import type { ActionContext } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";
import type { ApprovableOperation } from "@/server/approvals/operation";
import { broker as plainBroker } from "@/server/broker";
import { logger } from "@/server/log";
import { recordOptionLevelChange } from "@/server/surveillance/queries/alerts";
import { forgetAccountReads } from "./shared-reads";
import { accountFieldMap } from "./upstream-errors";

/** Sends an account update with the client_request_id its form made; the action and an approval's execution both call it. */
export async function sendAccountUpdate(
  input: UpdateAccountValues,
  { audit, broker, db, staff }: ActionContext,
): Promise<{ accountId: string; status: string }> {
  audit.target = `account:${input.account_id}`;
  // The level before the update, for surveillance (an option order soon after a raise): the upstream's account events
  // do not say what changed. Read outside the audited calls; when it cannot be read, no raise is recorded.
  const before = input.option_level
    ? await plainBroker()
        .getVirtualAccount({ account_id: input.account_id })
        .then(
          (a) => ({ level: a.option_level ?? null }),
          () => undefined,
        )
    : undefined;
  try {
    const result = await broker
      .updateVirtualAccount({
        client_request_id: input.client_request_id,
        account_id: input.account_id,
        ...toUpstreamFields(input),
      })
      // Whatever the answer (a timeout may have applied it): the next read of the account goes upstream.
      .finally(forgetAccountReads);
    if (before) {
      await recordOptionLevelChange(db.engine, {
        accountId: input.account_id,
        from: before.level,
        to: input.option_level,
        by: staff.email,
      }).catch((error: unknown) => logger.error({ err: error, account: input.account_id }, "option level raise not recorded"));
    }
    revalidatePath(`/accounts/${input.account_id}`);
    revalidatePath("/accounts");
    return { accountId: result.account_id, status: result.account_status ?? "" };
  } catch (error) {
    throw toActionError(error, { fields: accountFieldMap({ mailSameAsHome: input.w8ben_info.mail_same_as_home }), idempotent: true });
  }
}

/**
 * An update sends the whole account (every field of the form), so one approved after the account changed would
 * put back what was changed in between. Before a held update is sent, the account is read again: the update must
 * change exactly what it changed when it was held (the same fields, from the same values); otherwise it is refused
 * and nothing is sent. A field someone already set to the update's value is no conflict. A request held before the
 * diff was stored (null) is sent as it is.
 */
async function refuseIfChangedSince(input: UpdateAccountValues, diff: unknown): Promise<void> {
  if (!Array.isArray(diff)) return;
  const heldLines = diff as DiffLine[];
  // Read outside the audited calls (as sendAccountUpdate's read of the level): the entry's upstream request id is the update's.
  const now = (await plainBroker().getVirtualAccount({ account_id: input.account_id })) as AccountView;
  const changed = diffAccount(formValuesFromAccount(now, input.client_request_id), input).filter(
    (l) => !heldLines.some((h) => h.path === l.path && h.before === l.before && h.after === l.after),
  );
  if (changed.length === 0) return;
  const fields = changed.map((l) => l.label.toLowerCase()).join(", ");
  throw new AppError(
    "ACCOUNT_CHANGED",
    `account ${input.account_id} changed since the update was held: ${changed.map((l) => l.path).join(", ")}`,
    `The account changed after this update was requested (${fields}). Nothing was sent: request the update again from the account as it is now.`,
  );
}

const level = (v: string | undefined) => OPTION_LEVELS.indexOf((v ?? "") as (typeof OPTION_LEVELS)[number]);

/**
 * The rule keys an account update meets, from its difference with the account as the upstream has it now: the US
 * option level raised to LV3 or LV4 (accounts.option_level_raise), any W-8BEN field changed (accounts.w8ben_change).
 */
export function accountUpdateRuleKeys(diff: DiffLine[]): string[] {
  const keys: string[] = [];
  const option = diff.find((d) => d.path === "option_level");
  if (option && level(option.after) >= level("LV3") && level(option.after) > level(option.before)) keys.push("accounts.option_level_raise");
  if (diff.some((d) => d.path.startsWith("w8ben_info."))) keys.push("accounts.w8ben_change");
  return keys;
}

/** The account update as an approvable operation: held by the rules on raising the option level and on W-8BEN changes. */
export const accountUpdate: ApprovableOperation<typeof updateAccountSchema> = {
  action: "accounts.update",
  schema: updateAccountSchema,
  // Assessing reads the account upstream: only when a rule could hold the update.
  possibleRuleKeys: ["accounts.option_level_raise", "accounts.w8ben_change"],
  async assess(input, ctx) {
    const now = (await ctx.broker.getVirtualAccount({ account_id: input.account_id })) as AccountView;
    const diff = diffAccount(formValuesFromAccount(now, input.client_request_id), input);
    return { ruleKeys: accountUpdateRuleKeys(diff), diff };
  },
  money: () => undefined,
  target: (input) => `account:${input.account_id}`,
  accounts: (input) => [input.account_id],
  // Labels only: the summary is listed to everyone who reads the inbox, values (some of them PII) are on the page.
  summary: (input, diff) => {
    const lines = Array.isArray(diff) ? (diff as DiffLine[]) : [];
    const option = lines.find((d) => d.path === "option_level");
    const parts = [
      ...(option ? [`option level ${option.before} → ${option.after}`] : []),
      ...(lines.some((d) => d.path.startsWith("w8ben_info.")) ? ["W-8BEN"] : []),
      ...lines.filter((d) => d.path !== "option_level" && !d.path.startsWith("w8ben_info.")).map((d) => d.label.toLowerCase()),
    ];
    return `Update of account ${input.account_id}${parts.length ? `: ${parts.join(", ")}` : ""}`;
  },
  clientRequestId: (input) => input.client_request_id,
  async run(input, ctx, held) {
    if (held) await refuseIfChangedSince(input, held.diff);
    return sendAccountUpdate(input, ctx);
  },
  resultLink: (input) => ({ href: `/accounts/${encodeURIComponent(input.account_id)}`, label: `Account ${input.account_id}` }),
};
