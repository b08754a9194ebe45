import { guardedLayout } from "@/app/(desk)/guarded-layout";

/**
 * The permission is checked here, above any loading.tsx Suspense boundary, so a refusal is a real 403 (loading.tsx
 * files live in route groups, (list) and (detail), so they never wrap the new and edit pages).
 */
export default guardedLayout("accounts:read");
