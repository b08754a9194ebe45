/**
 * The audit trail's action names in words, for the pages that show a person what they did (home) and the audit
 * filter's suggestions. The trail itself keeps the exact names (compliance filters by them); a name missing here is
 * shown as it is. `tests/unit/audit-actions.test.ts` checks that every action the server names has its words.
 */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "accounts.create": "Opened an account",
  "accounts.update": "Changed an account",
  "accounts.reveal_pii": "Revealed an account holder's details",
  "accounts.trading_credentials.issue": "Issued trading credentials",
  "accounts.trading_credentials.revoke": "Revoked trading credentials",
  "activities.sweep": "Asked for an activities sweep",
  "alerts.decide": "Decided an alert",
  "alerts.rule_save": "Saved a surveillance rule",
  "approvals.approve": "Approved a request",
  "approvals.reject": "Rejected a request",
  "approvals.withdraw": "Withdrew a request",
  "approvals.decide_many": "Decided several requests at once",
  "notices.decisions_seen": "Read the decisions on own requests",
  "approvals.check": "Checked a request's execution",
  "approvals.claim": "Took a request to execute",
  "approvals.execute": "Executed an approved request",
  "approvals.expire": "A request expired",
  "approvals.recover": "Settled an interrupted request",
  "approvals.rule_enable": "Turned an approval rule on or off",
  "approvals.rule_save": "Saved an approval rule",
  "auth.sign_in": "Signed in",
  "auth.sign_out": "Signed out",
  "auth.code_requested": "Asked for a sign-in code",
  "auth.lockout": "Locked out after failed sign-ins",
  "cli.key_create": "Made a command-line access key",
  "cli.key_revoke": "Revoked a command-line access key",
  "cli.login": "Logged the command line in",
  "jobs.retry": "Retried a job",
  "jobs.run": "Ran a job now",
  "movements.cash_journal": "Cash journal",
  "movements.position_journal": "Position journal",
  "movements.bulk_journals": "Bulk journals",
  "movements.bulk_journals.retry": "Bulk journals: retry failed rows",
  "movements.fx_request": "Currency exchange request",
  "movements.instant_exchange": "Instant currency exchange",
  "movements.instant_funding": "Deposit or withdrawal",
  "orders.place": "Placed an order",
  "orders.preview": "Previewed an order",
  "orders.replace": "Replaced an order",
  "orders.cancel": "Cancelled an order",
  "orders.check": "Checked an account's open orders",
  "orders.lookup": "Looked an order up for an account",
  "orders.exercise": "Exercised an option (or marked it not to be)",
  "staff.create": "Added a staff member",
  "staff.set_role": "Changed a staff member's role",
  "staff.set_disabled": "Disabled or enabled a staff member",
  "staff.reset_two_factor": "Reset a staff member's two-factor sign-in",
  "staff.unlock": "Unlocked a staff member",
  "stream.reconcile": "Reconciled the event stream",
  "stream.reconnect": "Reconnected the event stream",
  "tokens.create": "Made an access token",
  "tokens.revoke": "Revoked an access token",
  "two_factor.start": "Began two-factor enrolment",
  "two_factor.confirm": "Turned two-factor sign-in on",
  "two_factor.disable": "Turned two-factor sign-in off",
  "two_factor.require_roles": "Set which roles need two-factor sign-in",
};

/** An action in words; a tool call through an assistant channel names its tool; anything else as it is. */
export function auditActionLabel(action: string): string {
  if (action.startsWith("tools.")) return `Assistant tool: ${action.slice("tools.".length).replaceAll("_", " ")}`;
  return AUDIT_ACTION_LABELS[action] ?? action;
}
