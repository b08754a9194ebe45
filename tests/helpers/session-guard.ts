import { accessOf } from "@/lib/auth/permissions";

/**
 * The guard as tests that mock the session use it: `currentStaff` answers the session's staff member with their
 * role's permissions, as the real guard reads them (a built-in role's table; an unknown role: none).
 */
export function sessionGuard(session: { staff: { role: string } | null }) {
  return {
    currentStaff: async () =>
      session.staff && { ...session.staff, ...(accessOf(session.staff.role) ?? { roleLabel: session.staff.role, permissions: [] }) },
  };
}

/** A support and a compliance staff member, as tests that mock the session sign them in. */
export const SUPPORT = { id: "00000000-0000-4000-8000-000000000002", email: "support@example.test", name: "S", role: "support" };
export const COMPLIANCE = { id: "00000000-0000-4000-8000-000000000003", email: "compliance@example.test", name: "C", role: "compliance" };
