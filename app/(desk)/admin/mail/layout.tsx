import { guardedLayout } from "../../guarded-layout";

export default guardedLayout("mail:read");
