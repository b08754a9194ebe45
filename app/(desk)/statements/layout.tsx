import { guardedLayout } from "../guarded-layout";

export default guardedLayout("statements:read");
