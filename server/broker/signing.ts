import "server-only";
// The signing code moved to the shared wire module; this re-export keeps the sandbox's event files (moved
// separately) compiling until they import "@/server/wire/signing" themselves. Import from server/wire.
export * from "@/server/wire/signing";
