import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Brokerdesk", template: "%s · Brokerdesk" },
  description: "Back office for an omnibus master account and its virtual accounts",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
