import { guardedLayout } from "../../guarded-layout";

export default guardedLayout("reports:manage");
