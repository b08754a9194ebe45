/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite, argon2 and pino load native or wasm assets at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "pino", "pg"],
  experimental: { authInterrupts: true },
  poweredByHeader: false,
};

export default nextConfig;
