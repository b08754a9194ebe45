import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto mt-24 max-w-md text-center">
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="mt-1 text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-sm text-slate-600">The page you asked for does not exist or has moved.</p>
      <Link href="/" className="mt-4 inline-block text-sm text-blue-700 hover:underline">
        Back to the desk
      </Link>
    </main>
  );
}
