/**
 * `next build` renders every page that uses no request data, to find the static ones. None of them may reach the
 * database or the upstream: a build has neither, and must never touch a production one. A page that reads data
 * checks its staff member first (requirePermission reads the session cookie, which makes the page dynamic), so
 * this refusal is only ever met by a page that forgot to. Next drops the refusal silently (the layout's session read
 * already made the route dynamic): it stops the read, and tests/unit/pages-guard-first.test.ts names the page.
 */
export function refuseWhileBuilding(what: string): void {
  if (process.env.NEXT_PHASE === "phase-production-build") {
    throw new Error(`${what} was reached while the app was being built: the page must check its staff member first.`);
  }
}
