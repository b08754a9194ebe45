import { listParams, type StateOf } from "@/lib/list-params";

/** Sort keys the staff list function orders by in SQL (keyset paging in the same order). */
export const STAFF_SORTABLE = ["name", "email", "role"] as const;
export type StaffSort = (typeof STAFF_SORTABLE)[number];

/** The Staff page's URL state: by email unless asked otherwise. */
export const staffListParams = listParams({
  filters: {},
  sortable: STAFF_SORTABLE,
  defaultSort: { id: "email", desc: false },
  sizes: [10, 25, 50, 100],
  defaultSize: 50,
});
export type StaffListParams = StateOf<typeof staffListParams>;

/** A staff user as the browser gets it (no hash, plain JSON). */
export interface StaffRow {
  id: string;
  email: string;
  name: string;
  role: string;
  roleLabel: string;
  disabled: boolean;
  locked: boolean;
  /** Signs in with a code from an authenticator (server/two-factor). */
  twoFactor: boolean;
  lastSignInAt: string | null;
}
