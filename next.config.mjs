/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite, argon2 and pino load native or wasm assets at run time, the mail packages Node modules of their own: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pdfkit", "@node-rs/argon2", "pino", "pg", "nodemailer", "smtp-server", "mailparser"],
  experimental: {
    authInterrupts: true,
    // Turbopack keeps a cache of the build in .next/cache that halves the next build of a changed tree (20 s against
    // 38 s here), at about 20 s of CPU on a build from nothing. CI builds once on a clean clone and throws the cache
    // away: .ci/run turns it off (BROKERDESK_BUILD_CACHE=off).
    turbopackFileSystemCacheForBuild: process.env.BROKERDESK_BUILD_CACHE !== "off",
  },
  poweredByHeader: false,
  // `npm test` type-checks the whole tree (tsc, its first step) before the end-to-end run builds the app: that build
  // skips Next's second pass of the same check (about 40 s). Every other build checks the types as usual.
  typescript: { ignoreBuildErrors: process.env.BROKERDESK_TYPES_CHECKED === "1" },
  // The route handlers' answers (JSON, CSV, PDF, ZIP) are not documents: no script or style may load in them, no
  // framing, no sniffing. Pages get theirs, with a script nonce, from proxy.ts (lib/security-headers.ts). Auth.js's
  // own routes (/api/auth) are left as they were: its fallback pages carry inline styles.
  async headers() {
    return [
      {
        source: "/api/:path((?!auth/).*)",
        headers: [
          { key: "content-security-policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "x-frame-options", value: "DENY" },
          { key: "x-content-type-options", value: "nosniff" },
          { key: "referrer-policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
