import NextAuth from "next-auth";
import { authConfig } from "./auth.config";

// Sends signed-out visitors to the sign-in page. Permissions are enforced by each page and action, not here.
export default NextAuth(authConfig).auth;

export const config = {
  matcher: ["/((?!api/auth|api/health|_next/static|_next/image|favicon.ico|.*\\.(?:png|svg|ico)$).*)"],
};
