import { guardedLayout } from "@/app/(desk)/guarded-layout";

// Checked in the layout, above the page's loading.tsx: a refused user gets a real 403, not a streamed 200.
export default guardedLayout("movements:write");
