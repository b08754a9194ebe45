import { can, type Access, type Permission } from "@/lib/auth/permissions";

/** The sidebar: only pages that exist, each behind the permission its page enforces. */
export interface NavItem {
  href: string;
  label: string;
  permission?: Permission;
  section?: string;
  badge?: NavBadge;
}

/**
 * A count beside a menu item: read from `/api/badges/{id}` (behind the item's permission), kept under the live
 * query root of the same name, so the notices that refresh the item's page refresh its count too.
 */
export type NavBadgeId = "approvals" | "alerts";
export interface NavBadge {
  id: NavBadgeId;
  /** What the count is, after the number: "3 waiting for your decision". */
  label: string;
  tone: "amber" | "red";
}

export const NAV: NavItem[] = [
  { href: "/", label: "Home" },
  { href: "/accounts", label: "Accounts", permission: "accounts:read" },
  { href: "/orders", label: "Orders", permission: "orders:read" },
  { href: "/movements", label: "Movements", permission: "movements:read" },
  { href: "/statements", label: "Statements", permission: "statements:read" },
  { href: "/reconciliation", label: "Reconciliation", permission: "reconciliation:read" },
  {
    href: "/approvals",
    label: "Approvals",
    permission: "approvals:read",
    badge: { id: "approvals", label: "waiting for your decision", tone: "amber" },
  },
  { href: "/markets", label: "Markets", permission: "market:read" },
  { href: "/status", label: "Upstream status", permission: "status:read" },
  { href: "/activities", label: "Activities", permission: "activities:read", section: "Compliance" },
  { href: "/audit", label: "Audit trail", permission: "audit:read", section: "Compliance" },
  {
    href: "/alerts",
    label: "Alerts",
    permission: "alerts:read",
    section: "Compliance",
    badge: { id: "alerts", label: "open", tone: "red" },
  },
  { href: "/admin/surveillance", label: "Surveillance rules", permission: "alerts:rules", section: "Compliance" },
  { href: "/admin/staff", label: "Staff", permission: "staff:manage", section: "Admin" },
  { href: "/admin/roles", label: "Roles", permission: "staff:manage", section: "Admin" },
  { href: "/admin/connection", label: "Connection", permission: "connection:manage", section: "Admin" },
  { href: "/admin/approvals", label: "Approval rules", permission: "approvals:rules", section: "Admin" },
  { href: "/admin/stream", label: "Event stream", permission: "stream:read", section: "Admin" },
  { href: "/admin/jobs", label: "Jobs", permission: "jobs:manage", section: "Admin" },
  { href: "/admin/mail", label: "Mail", permission: "mail:read", section: "Admin" },
  { href: "/admin/reports", label: "Reports", permission: "reports:manage", section: "Admin" },
  { href: "/settings/tokens", label: "Access tokens", permission: "tokens:own", section: "Settings" },
  { href: "/settings/cli", label: "Command line", permission: "cli:own", section: "Settings" },
  { href: "/settings/security", label: "Security", permission: "security:own", section: "Settings" },
];

export function navFor(staff: Access): NavItem[] {
  return NAV.filter((item) => !item.permission || can(staff, item.permission));
}
