import { guardedLayout } from "@/app/(desk)/guarded-layout";

// The one page open to a staff member who must enrol first.
export default guardedLayout("security:own", { enrolment: "optional" });
