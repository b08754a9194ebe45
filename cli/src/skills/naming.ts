/**
 * Where a skill sits in the command tree. The desk's own tools have chosen names (`orders cancel`); any other
 * skill is placed by its name's shape: the spec's `stock-…`, `instrument-…`, `watchlist-…` under their first word
 * (`watchlist instruments-add`), a verb and a known noun under the noun's group (`get-movement` → `movements get`),
 * anything else as a command of its own named as the skill. So a tool added to the desk's registry is a command at
 * once, with no change here.
 */

export type Placement = { group?: string; command: string };

const CHOSEN: Record<string, Placement> = {
  "find-accounts": { group: "accounts", command: "list" },
  "get-account-summary": { group: "accounts", command: "get" },
  "find-orders": { group: "orders", command: "list" },
  "get-order": { group: "orders", command: "get" },
  "cancel-order": { group: "orders", command: "cancel" },
  "replace-order": { group: "orders", command: "replace" },
  "list-movements": { group: "movements", command: "list" },
  "request-cash-journal": { group: "movements", command: "cash-journal" },
  "list-my-approvals": { group: "approvals", command: "list" },
  "approve-request": { group: "approvals", command: "approve" },
  "reject-request": { group: "approvals", command: "reject" },
  "list-account-activities": { group: "activities", command: "list" },
  "list-open-alerts": { group: "alerts", command: "list" },
  "get-stream-health": { group: "stream", command: "health" },
};

/** A noun (singular or plural) → its group. */
const GROUPS: Record<string, string> = {
  account: "accounts",
  accounts: "accounts",
  order: "orders",
  orders: "orders",
  movement: "movements",
  movements: "movements",
  approval: "approvals",
  approvals: "approvals",
  activity: "activities",
  activities: "activities",
  alert: "alerts",
  alerts: "alerts",
  stream: "stream",
  stock: "stock",
  instrument: "instrument",
  watchlist: "watchlist",
};

export const GROUP_DESCRIPTIONS: Record<string, string> = {
  accounts: "Find accounts and read one account's summary",
  orders: "The desk's order blotter: list, read, cancel and replace orders",
  movements: "Money movements: list them, request a cash journal",
  approvals: "Requests held for approval: list, approve, reject",
  activities: "An account's activities: list and export",
  alerts: "The surveillance alert queue",
  stream: "The upstream event stream",
  stock: "Market data: NOII, gainers and losers, most active",
  instrument: "Reference data: company profile, analyst views, futures",
  watchlist: "Watchlists and their instruments",
};

const VERB_ALIASES: Record<string, string> = { find: "list" };
const FILLER = new Set(["my", "open"]);

export function placeSkill(skill: string): Placement {
  const chosen = CHOSEN[skill];
  if (chosen) return chosen;
  const words = skill.split("-").filter(Boolean);
  const first = GROUPS[words[0]];
  if (first && words.length > 1) return { group: first, command: words.slice(1).join("-") };
  const nounAt = words.findIndex((w, i) => i > 0 && GROUPS[w]);
  if (nounAt > 0) {
    const rest = words.filter((w, i) => i !== nounAt && !FILLER.has(w));
    rest[0] = VERB_ALIASES[rest[0]] ?? rest[0];
    return { group: GROUPS[words[nounAt]], command: rest.join("-") };
  }
  return { command: skill };
}
