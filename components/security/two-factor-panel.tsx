"use client";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { CopyableValue } from "@/components/ui/copy-button";
import { Alert } from "@/components/ui/field";
import { Mono } from "@/components/ui/mono";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { confirmTwoFactor, startTwoFactor, turnOffTwoFactor } from "@/server/actions/two-factor";
import { CodeForm } from "./code-form";

/** What the Security page shows: the enrolment's state (a pending one with its QR code, made on the server). */
export type TwoFactorState =
  { status: "off" } | { status: "pending"; secret: string; uri: string; qr: string } | { status: "on"; since: string };

/**
 * Two-factor sign-in on Settings → Security: set up an authenticator app (scan the QR code, or type the key or the
 * otpauth URI), confirm with its code, and from then on sign in (and `brokerdesk login`) with a code; turn it off
 * with a code, unless one's role requires it. Each step is an action; the page is read again after it.
 */
export function TwoFactorPanel({ state, required, continueTo }: { state: TwoFactorState; required: boolean; continueTo?: string }) {
  const { run, busy, banner } = useAction();
  const start = () => void run(() => startTwoFactor({}));

  if (state.status === "on") {
    return (
      <Panel title="Two-factor sign-in">
        <div className="flex flex-col gap-3 text-sm" data-testid="two-factor-on">
          <Alert tone="success">
            Two-factor sign-in has been on since {formatDateTime(state.since)}: signing in to the desk and <Mono>brokerdesk login</Mono> ask
            for a code from your authenticator app.
          </Alert>
          {continueTo ? (
            // A full load, not a client navigation: the desk refused its live channel and counts until now (ENROL_FIRST),
            // and its shell opens them again only when it loads.
            <a href={continueTo} className="text-blue-700 hover:underline">
              Continue to the desk
            </a>
          ) : null}
          {required ? (
            <p className="text-slate-600">Your role requires two-factor sign-in: it cannot be turned off.</p>
          ) : (
            <>
              <p className="text-slate-600">To turn it off, enter a current code.</p>
              <CodeForm
                action={turnOffTwoFactor}
                submitLabel="Turn off two-factor sign-in"
                danger
                confirm="Turn off two-factor sign-in? Signing in will ask for your password only, and brokerdesk login will stop working."
              />
            </>
          )}
        </div>
      </Panel>
    );
  }

  if (state.status === "pending") {
    return (
      <Panel title="Set up your authenticator app">
        <div className="flex flex-col gap-4 text-sm" data-testid="two-factor-pending">
          <FormBanner banner={banner} />
          <ol className="flex list-decimal flex-col gap-4 pl-5">
            <li>
              <p>Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy, …).</p>
              {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made on the server, nothing to optimise */}
              <img
                src={state.qr}
                alt="QR code of your authenticator set-up"
                width={192}
                height={192}
                className="mt-2 rounded border border-slate-200"
              />
            </li>
            <li className="flex flex-col gap-2">
              <p>
                Or type the key <Mono>{state.secret.replace(/(.{4})(?=.)/g, "$1 ")}</Mono> into the app (time-based, 6 digits, 30 seconds),
                or give it the otpauth URI:
              </p>
              <CopyableValue label="otpauth URI" value={state.uri} />
            </li>
            <li className="flex flex-col gap-2">
              <p>Enter the code the app shows now.</p>
              <CodeForm action={confirmTwoFactor} submitLabel="Turn on two-factor sign-in" />
            </li>
          </ol>
          <div>
            <Button variant="ghost" size="sm" disabled={busy} onClick={start}>
              Start again with a new key
            </Button>
          </div>
        </div>
      </Panel>
    );
  }

  return (
    <Panel title="Two-factor sign-in">
      <div className="flex flex-col gap-3 text-sm" data-testid="two-factor-off">
        <FormBanner banner={banner} />
        {required ? (
          <Alert tone="info">Your role requires two-factor sign-in: set up an authenticator app to continue to the desk.</Alert>
        ) : null}
        <p className="text-slate-700">
          Two-factor sign-in is off. With it on, signing in asks for a code from an authenticator app on your phone as well as your
          password, and the command line (<Mono>brokerdesk login</Mono>) can be used: it always asks for a code.
        </p>
        <div>
          <Button disabled={busy} onClick={start}>
            {busy ? "Starting…" : "Set up an authenticator app"}
          </Button>
        </div>
      </div>
    </Panel>
  );
}
