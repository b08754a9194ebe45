import { sessionGuard } from "./session-guard";

/**
 * The session of a test file that signs staff in by hand, and the modules it mocks for that. A test file keeps its
 * own `vi.mock` calls (Vitest hoists them in test files only) and takes each factory's module from here, imported in
 * the factory: the file and its mocks then share this module's one `session`.
 *
 *   vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
 *   vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));
 *   vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);
 */
export const session: { staff: null | { id: string; email: string; name: string; role: string } } = { staff: null };

/** Runs `call` signed in as `staff` (who stays signed in after it). */
export const as = <T>(staff: NonNullable<typeof session.staff>, call: () => Promise<T>): Promise<T> => {
  session.staff = staff;
  return call();
};

/** `@/server/auth/guard`: the session's staff member, with their role's permissions. */
export const mockedGuard = sessionGuard(session);

/** `@/server/auth/request-meta`: every request from `clientIp`, by the test runner (a route's headers too). */
export const mockedRequestMeta = (clientIp = "10.0.0.9") => {
  const meta = () => ({ clientIp, userAgent: "vitest" });
  return { requestMeta: async () => meta(), metaFromHeaders: () => meta() };
};

/** `next/cache`: nothing to revalidate outside Next. */
export const mockedNextCache = { revalidatePath: () => undefined };
