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
