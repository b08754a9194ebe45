/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite, argon2 and pino load native or wasm assets at run time, the mail packages Node modules of their own: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pdfkit", "@node-rs/argon2", "pino", "pg", "nodemailer", "smtp-server", "mailparser"],
  experimental: { authInterrupts: true },
  poweredByHeader: false,
};

export default nextConfig;
