import { test as setup } from "./fixtures";
import { DEMO_PASSWORD, ROLE_EMAILS, expectSignedIn, signIn, storageFor, type DemoRole } from "./helpers";

// One signed-in browser state per demo role, reused by the specs.
for (const role of Object.keys(ROLE_EMAILS) as DemoRole[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await signIn(page, ROLE_EMAILS[role], DEMO_PASSWORD);
    await expectSignedIn(page, ROLE_EMAILS[role]);
    await page.context().storageState({ path: storageFor(role) });
  });
}
