import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto mt-24 max-w-md text-center">
      <p className="text-sm font-semibold text-slate-500">403</p>
      <h1 className="mt-1 text-xl font-semibold">You do not have access to this page</h1>
      <p className="mt-2 text-sm text-slate-600">Your role does not include this work. Ask an administrator if you need it.</p>
      <Link href="/" className="mt-4 inline-block text-sm text-blue-700 hover:underline">
        Back to the desk
      </Link>
    </main>
  );
}
