"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Field, Input } from "@/components/ui/field";
import { NETWORK_ERROR } from "@/components/form/action-feedback";
import { statusSubscribeSchema } from "@/lib/schemas/status-mail";
import { STATUS_MAIL_OFF_MESSAGE } from "@/lib/status-mail";
import { STATUS_MODULES, STATUS_MODULE_LABELS, type StatusModule } from "@/lib/status";

/**
 * Email subscriptions to module changes (the status page's right-hand column). Posts to /api/status/subscribe, which
 * needs no session; the answer is the same for every address, and the mail's link confirms. `off`: the desk sends no
 * status mail (server/status-mail/config.ts), so it says so instead of offering the form.
 */
export function StatusSubscribe({ initialModules = [], off = false }: { initialModules?: StatusModule[]; off?: boolean }) {
  const [email, setEmail] = useState("");
  const [modules, setModules] = useState<StatusModule[]>(initialModules);
  const [errors, setErrors] = useState<{ email?: string; modules?: string }>({});
  const [banner, setBanner] = useState<{ tone: "success" | "error"; text: string }>();
  const [sending, setSending] = useState(false);

  const toggle = (m: StatusModule) => setModules((list) => (list.includes(m) ? list.filter((x) => x !== m) : [...list, m]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const parsed = statusSubscribeSchema.safeParse({ email, modules });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as "email" | "modules"] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    setBanner(undefined);
    setSending(true);
    try {
      const response = await fetch("/api/status/subscribe", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(parsed.data),
      });
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      setBanner({ tone: response.ok ? "success" : "error", text: body.message ?? "Something went wrong. Try again." });
    } catch {
      setBanner({ tone: "error", text: NETWORK_ERROR });
    } finally {
      setSending(false);
    }
  }

  if (off) {
    return (
      <p className="text-sm text-slate-600" data-testid="status-mail-off">
        {STATUS_MAIL_OFF_MESSAGE}
      </p>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Subscribe to status mails" className="space-y-3">
      <Field id="status-subscribe-email" label="Email" error={errors.email} required>
        {(describedBy) => (
          <Input
            id="status-subscribe-email"
            type="email"
            autoComplete="email"
            value={email}
            aria-required
            aria-invalid={!!errors.email}
            aria-describedby={describedBy}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend className="mb-1 text-xs font-medium text-slate-700">Modules</legend>
        <div className="grid grid-cols-2 gap-x-3 gap-y-1">
          {STATUS_MODULES.map((m) => (
            <label key={m} className="flex items-center gap-1.5 text-sm text-slate-800">
              <input type="checkbox" checked={modules.includes(m)} onChange={() => toggle(m)} />
              {STATUS_MODULE_LABELS[m]}
            </label>
          ))}
        </div>
        {errors.modules ? (
          <p role="alert" className="mt-1 text-xs text-red-700">
            {errors.modules}
          </p>
        ) : null}
      </fieldset>
      {banner ? <Alert tone={banner.tone}>{banner.text}</Alert> : null}
      <Button type="submit" disabled={sending}>
        {sending ? "Sending…" : "Subscribe"}
      </Button>
      <p className="text-xs text-slate-500">A confirmation link is mailed first; every mail has a one-click unsubscribe link.</p>
    </form>
  );
}
