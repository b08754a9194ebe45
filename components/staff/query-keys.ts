import { listResource } from "@/components/data-table/list-resource";
import { staffListParams, type StaffListParams } from "@/lib/schemas/staff-list";

/** The staff list's page: query key (root `staff`, the live channel's) and GET route. */
export const staffList = listResource<StaffListParams>("staff", "/api/staff", staffListParams);
