/**
 * Who may do what: data, not code. The UI hides what a role cannot do with this table and every server page,
 * route handler and action enforces the same table (server/auth/guard.ts).
 */
export const ROLES = ["admin", "operations", "support", "compliance"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Administrator",
  operations: "Operations",
  support: "Support",
  compliance: "Compliance",
};

export const PERMISSIONS = {
  "staff:manage": ["admin"],
  "connection:manage": ["admin"],
  "audit:read": ["admin", "compliance"],
  "accounts:read": ["admin", "operations", "support", "compliance"],
  "accounts:write": ["operations"],
  /** Sees W-8BEN tax ids and addresses unmasked. */
  "pii:view": ["admin", "operations"],
  /** May reveal masked PII with a stated reason (an audited act). */
  "pii:reveal": ["compliance"],
  /** The desk's read model: orders and money movements across accounts (live notices of their changes). */
  "orders:read": ["admin", "operations", "support", "compliance"],
  /** Replace and cancel an order for a customer, with a reason. */
  "orders:modify": ["operations", "support"],
  /** Place orders and exercise options for a customer. */
  "orders:place": ["operations"],
  "movements:read": ["admin", "operations", "compliance"],
  /** Journals, instant funding, FX requests and instant exchanges (subject to the approval rules). */
  "movements:write": ["operations"],
  /** The upstream event stream's health page; managing it: reconnect, run a reconciliation. */
  "stream:read": ["admin", "operations"],
  "stream:manage": ["admin"],
  /** The background jobs page (queues, runs, failures): run a job now, retry a failed one. */
  "jobs:manage": ["admin"],
  /** What the embedded SMTP server received (the status mails when no SMTP_URL is configured). */
  "mail:read": ["admin"],
  /** The approvals inbox and its requests (a maker may withdraw their own). */
  "approvals:read": ["admin", "operations", "compliance"],
  /** Approve or reject other people's requests (when the request's rule names the role). */
  "approvals:decide": ["admin", "operations"],
  /** Edit the approval rules. */
  "approvals:rules": ["admin"],
  /** The surveillance alert queue and an alert's page (live notices of new alerts). */
  "alerts:read": ["admin", "compliance"],
  /** Account activities across accounts (the explorer over the desk's copy) and asking for a sweep of them. */
  "activities:read": ["admin", "operations", "compliance"],
  /** Account statements and trade confirmations (PDF, CSV), one account's or every account's for a period (audited). */
  "statements:read": ["admin", "operations", "compliance"],
  /** The end-of-day reconciliation: its runs and their breaks (the books against the upstream). */
  "reconciliation:read": ["admin", "operations", "compliance"],
  /** Run a reconciliation now; assign, comment on and close its breaks (audited). */
  "reconciliation:work": ["operations", "compliance"],
  /** Scheduled reports: schedule, edit, delete and run them now, and see their runs (Admin → Reports). */
  "reports:manage": ["admin"],
  /** Clear or escalate an alert, with a note (audited). */
  "alerts:decide": ["compliance"],
  /** Edit the surveillance rules (kinds, thresholds, on/off). */
  "alerts:rules": ["admin"],
  /** Market data and reference data: the screeners page, instrument pages (live quote, chart, depth, ticks) and their tabs, the order ticket's quote, the header's symbol search; every role. */
  "market:read": ["admin", "operations", "support", "compliance"],
  /** The desk's watchlists at the upstream (its app key's): create, rename, delete, and add, remove or reorder their instruments. */
  "watchlists:write": ["admin", "operations", "support", "compliance"],
  /** One's own access tokens (create, list, revoke) for one's assistants and automations: every role. */
  "tokens:own": ["admin", "operations", "support", "compliance"],
  /** Every staff member's access tokens: see them and revoke any. */
  "tokens:manage": ["admin"],
  /** The status page: the upstream modules' states, their incidents and daily uptime (live notices of changes). */
  "status:read": ["admin", "operations", "support", "compliance"],
  /** One's own access keys of the command line (create, list, revoke): every role. */
  "cli:own": ["admin", "operations", "support", "compliance"],
  /** Every staff member's access keys: see them and revoke any. */
  "cli:manage": ["admin"],
  /** One's own two-factor sign-in (enrol an authenticator, turn it off): every role. */
  "security:own": ["admin", "operations", "support", "compliance"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_LIST = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && Object.hasOwn(PERMISSIONS, value);
}

/**
 * What a staff member may do: their role and its permissions, read with the staff member on every request. A
 * built-in role's permissions are the table above; a custom role's are its row (Admin → Roles).
 */
export interface Access {
  role: string;
  permissions: readonly Permission[];
}

export function can(who: Pick<Access, "permissions"> | null | undefined, permission: Permission): boolean {
  return !!who && who.permissions.includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** A built-in role's permissions, in the table's order. */
export function builtInPermissions(role: Role): Permission[] {
  return PERMISSION_LIST.filter((p) => (PERMISSIONS[p] as readonly string[]).includes(role));
}

/** A custom role as the staff member's row joins it: its label and permissions, or null when there is no such role. */
export interface CustomRoleRef {
  roleLabel: string | null;
  rolePermissions: readonly string[] | null;
}

/**
 * The access of a role: a built-in one's from the table, a custom one's from its row (names no longer in the
 * table dropped), undefined for a role that exists in neither (the staff member then has no access at all).
 */
export function accessOf(role: string, custom?: CustomRoleRef): (Access & { roleLabel: string }) | undefined {
  if (isRole(role)) return { role, roleLabel: ROLE_LABELS[role], permissions: builtInPermissions(role) };
  if (!custom?.rolePermissions) return undefined;
  return { role, roleLabel: custom.roleLabel ?? role, permissions: custom.rolePermissions.filter(isPermission) };
}

/** The words a permission stands for in the roles matrix (Admin → Roles). */
export const PERMISSION_LABELS: Record<Permission, string> = {
  "staff:manage": "Manage staff users and roles",
  "connection:manage": "Manage the upstream connection",
  "audit:read": "Read the audit trail",
  "accounts:read": "Read accounts",
  "accounts:write": "Open and update accounts",
  "pii:view": "See tax ids and addresses unmasked",
  "pii:reveal": "Reveal masked personal data with a reason",
  "orders:read": "Read orders and executions (the blotter)",
  "orders:modify": "Replace and cancel orders",
  "orders:place": "Place orders and exercise options",
  "movements:read": "Read money movements",
  "movements:write": "Send journals, funding and FX",
  "stream:read": "Watch the event stream",
  "stream:manage": "Reconnect the stream, run a reconciliation",
  "jobs:manage": "Run and retry background jobs",
  "mail:read": "Read the embedded mail server",
  "approvals:read": "Read the approvals inbox",
  "reconciliation:read": "Read reconciliation runs and breaks",
  "reconciliation:work": "Run reconciliations, assign, comment on and close breaks",
  "reports:manage": "Schedule reports and see their runs",
  "approvals:decide": "Approve or reject requests",
  "approvals:rules": "Edit the approval rules",
  "alerts:read": "Read surveillance alerts",
  "activities:read": "Explore account activities",
  "statements:read": "Statements and trade confirmations",
  "alerts:decide": "Clear or escalate alerts",
  "alerts:rules": "Edit the surveillance rules",
  "market:read": "Market and reference data",
  "watchlists:write": "Edit the desk's watchlists",
  "tokens:own": "Own access tokens",
  "tokens:manage": "Everyone's access tokens",
  "status:read": "Upstream status page",
  "cli:own": "Own command-line keys",
  "cli:manage": "Everyone's command-line keys",
  "security:own": "Own two-factor sign-in",
};

/** Each role's main job, said under the home page's greeting. */
export const ROLE_MAIN_JOB: Record<Role, string> = {
  admin: "Your job: keep the desk running: staff, approval and surveillance rules, the upstream connection, jobs.",
  operations: "Your job: open accounts, place orders and move money for customers, and approve colleagues' requests.",
  support:
    "Your job: help customers with their orders: find one by the customer's account number or order id in the search box above, then replace or cancel it.",
  compliance: "Your job: review alerts, account activities and the staff audit trail.",
};

/** The line under the home page's greeting: a built-in role's main job, or what a custom role may do. */
export function mainJobOf(staff: Access): string {
  if (isRole(staff.role)) return ROLE_MAIN_JOB[staff.role];
  const what = staff.permissions.map((p) => PERMISSION_LABELS[p].toLowerCase());
  return what.length ? `Your role may: ${what.join("; ")}.` : "Your role has no permissions yet: ask an administrator.";
}

/** What each role is told it can do on the home page. */
export const CAPABILITIES: { permission: Permission; text: string }[] = [
  {
    permission: "orders:modify",
    text: "Find a customer's order by their account number or the order's id (the search box at the top), then replace or cancel it with a reason",
  },
  { permission: "orders:place", text: "Place orders for a customer (stocks and US options), with the fees previewed and pre-trade checks" },
  { permission: "movements:write", text: "Move cash and positions with journals, fund accounts and convert currency" },
  { permission: "accounts:write", text: "Open and update virtual accounts (W-8BEN, trading permissions, option level)" },
  { permission: "accounts:read", text: "Find virtual accounts and inspect their balances, positions and activities" },
  { permission: "audit:read", text: "Review the staff audit trail and verify its hash chain" },
  { permission: "activities:read", text: "Explore account activities across accounts, with totals by currency and a CSV export" },
  {
    permission: "statements:read",
    text: "Download account statements and trade confirmations as PDF or CSV, one account's or every account's for a month",
  },
  { permission: "alerts:decide", text: "Review surveillance alerts and clear or escalate them with a note" },
  { permission: "alerts:rules", text: "Set the surveillance rules that raise alerts" },
  { permission: "staff:manage", text: "Create, disable, unlock and change the role of staff users" },
  { permission: "connection:manage", text: "Manage the upstream connection and its access token" },
  { permission: "approvals:decide", text: "Approve or reject other people's requests that an approval rule holds" },
  { permission: "approvals:rules", text: "Set the approval rules: which actions above which amounts need whose approval" },
  { permission: "stream:read", text: "Watch the upstream event stream that keeps the desk's records current" },
  { permission: "status:read", text: "See which upstream modules are online, their incidents and 90 days of uptime" },
];
