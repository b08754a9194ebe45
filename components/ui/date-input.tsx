"use client";
import { useRef, type InputHTMLAttributes, type Ref } from "react";
import { DATE_PLACEHOLDER, isDeskDate } from "@/lib/format";

/**
 * A calendar day in the desk's one format, yyyy-mm-dd, whatever the browser's locale. A native
 * `<input type="date">` shows the locale's order (mm/dd/yyyy in en-US) while the desk writes yyyy-mm-dd everywhere,
 * so the field is a text input (typed as written, placeholder YYYY-MM-DD) and the browser's calendar is offered by
 * the button beside it: a hidden date input under the field, opened with `showPicker()`, whose pick is written into
 * the text input as yyyy-mm-dd (an `input` event, so a controlled field's `onChange` and react-hook-form's
 * `register` both take it). Alt+ArrowDown in the field opens the calendar too. What the field holds is checked
 * where it is parsed (the list's params, the form's schema), as before.
 */
export function DateInput({
  className = "",
  min,
  max,
  disabled,
  ref,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { ref?: Ref<HTMLInputElement> }) {
  const text = useRef<HTMLInputElement | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const open = () => {
    const p = picker.current;
    const t = text.current;
    if (!p || !t || disabled) return;
    p.value = isDeskDate(t.value.trim()) ? t.value.trim() : "";
    try {
      p.showPicker();
    } catch {
      // A browser without showPicker (or refusing it): the native control's own way in.
      p.click();
    }
  };
  return (
    <span className="relative flex min-w-0 items-stretch">
      <input
        {...rest}
        ref={(el) => {
          text.current = el;
          if (typeof ref === "function") ref(el);
          else if (ref) ref.current = el;
        }}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        placeholder={rest.placeholder ?? DATE_PLACEHOLDER}
        disabled={disabled}
        onKeyDown={(e) => {
          rest.onKeyDown?.(e);
          if (e.altKey && e.key === "ArrowDown") {
            e.preventDefault();
            open();
          }
        }}
        className={`${className} min-w-0 rounded-r-none tabular-nums`}
      />
      <button
        type="button"
        onClick={open}
        disabled={disabled}
        aria-label="Open calendar"
        title="Open calendar (Alt+↓ in the field)"
        className="flex shrink-0 items-center rounded-r border border-l-0 border-slate-300 bg-white px-1.5 text-slate-600 hover:bg-slate-100 disabled:bg-slate-100"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="2" y="3" width="12" height="11" rx="1.5" />
          <path d="M2 6.5h12M5 1.5v3M11 1.5v3" />
        </svg>
      </button>
      {/* The calendar only: out of the tab order and the accessibility tree, under the field so it opens there. */}
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        min={min}
        max={max}
        data-date-picker=""
        className="pointer-events-none absolute bottom-0 left-0 h-px w-full opacity-0"
        onChange={(e) => {
          const t = text.current;
          if (!t || !e.target.value) return;
          // The native setter, then an input event: React's value tracker sees a change and calls onChange.
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(t, e.target.value);
          t.dispatchEvent(new Event("input", { bubbles: true }));
          t.focus();
        }}
      />
    </span>
  );
}
