import Link from "next/link";

export default function OrderNotFound() {
  return (
    <div className="mx-auto mt-16 max-w-md text-center">
      <p className="text-sm font-semibold text-slate-500">404</p>
      <h1 className="mt-1 text-lg font-semibold">Order not found</h1>
      <p className="mt-2 text-sm text-slate-600">The desk has no record of this order.</p>
      <Link href="/orders" className="mt-4 inline-block text-sm text-blue-700 hover:underline">
        Back to orders
      </Link>
    </div>
  );
}
