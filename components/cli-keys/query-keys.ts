import { listResource } from "@/components/data-table/list-resource";
import { accessKeyListParams, type AccessKeyListParams } from "@/lib/schemas/access-key-list";

/** Settings → Command line's keys: query key (root `access-keys`, the live channel's) and GET route. */
export const accessKeyList = listResource<AccessKeyListParams>("access-keys", "/api/access-keys", accessKeyListParams);
