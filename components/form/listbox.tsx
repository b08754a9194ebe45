"use client";
import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent, type ReactNode } from "react";

/** Whether a search box's search for what was typed is still on its way: the pause in typing, then the fetch. */
export function searchPending(typed: string, settled: string, hits: { isPlaceholderData: boolean; isLoading: boolean }): boolean {
  return typed !== settled || hits.isPlaceholderData || hits.isLoading;
}

/**
 * The option ArrowDown (`step` 1) or ArrowUp (-1) makes active, given which options are disabled: the next enabled
 * one, round the ends; with none active (`active` -1), the first enabled one going down and the last going up. -1
 * when every option is disabled.
 */
export function stepActive(disabled: readonly boolean[], active: number, step: 1 | -1): number {
  const enabled = disabled.flatMap((off, i) => (off ? [] : [i]));
  if (!enabled.length) return -1;
  const at = enabled.indexOf(active);
  return at < 0 ? enabled[step > 0 ? 0 : enabled.length - 1] : enabled[(at + step + enabled.length) % enabled.length];
}

/**
 * A search box and its list of matches as a WAI-ARIA combobox with a listbox popup (the account pickers of the
 * movement forms and the order ticket). The box's text is the picker's (`text`, `onText`); whether the list is open
 * is the hook's: the focus and typing open it (emptying the box does not), a pick and Escape close it. The focus
 * stays in the box: ArrowDown and ArrowUp move the active option (disabled ones skipped, round the ends; ArrowDown
 * opens a closed list), Enter picks it, or the first enabled match when none is active, and never submits the form
 * around the box. An Enter while the search for what was typed is on its way waits for that search's answer: the
 * list still shown is the previous search's (`keepPreviousData`), and its first account is not the one asked for.
 * Escape clears the active option and closes the list; with the list closed it is the search box's own (it empties
 * the box), and the list stays closed. A click picks too.
 */
export function useListbox<T>({
  options,
  state,
  text,
  onText,
  pending,
  keyOf,
  disabled = () => false,
  onPick,
}: {
  /** The matches to show; undefined before any search answered. */
  options: readonly T[] | undefined;
  /**
   * Whether the list is open, and its setter, for a picker whose search waits for the list to open (it needs the
   * state before its search, and so before this hook); without it the hook keeps its own.
   */
  state?: readonly [boolean, (open: boolean) => void];
  /** The box's text: trimmed, it is what was typed (with nothing typed, Enter picks only an option the arrows made active). */
  text: string;
  onText: (text: string) => void;
  /** The search for what was typed is on its way (`searchPending`). */
  pending: boolean;
  keyOf: (option: T) => string;
  disabled?: (option: T) => boolean;
  onPick: (option: T) => void;
}) {
  const listId = useId();
  const own = useState(false);
  const [open, setOpen] = state ?? own;
  const typed = text.trim();
  const waiting = open && pending;
  const list = options ?? [];
  // The active option by its key and what was typed when it became active: typing again, or a new list without it,
  // leaves none active.
  const [active, setActive] = useState<{ key: string; typed: string } | null>(null);
  // Enter pressed while the search for this text was on its way (read and written in handlers and effects only).
  const queued = useRef<string | null>(null);
  const shown = open && options !== undefined;
  const expanded = shown && list.length > 0;
  const activeIndex = active && active.typed === typed ? list.findIndex((o) => keyOf(o) === active.key && !disabled(o)) : -1;
  const optionId = (i: number) => `${listId}-${i}`;

  const pick = (option: T) => {
    queued.current = null;
    setActive(null);
    setOpen(false);
    onPick(option);
  };

  // The answer to the search an Enter waited for.
  useEffect(() => {
    if (queued.current === null || waiting) return;
    const due = queued.current === typed;
    queued.current = null;
    const first = due ? options?.find((o) => !disabled(o)) : undefined;
    if (first) pick(first);
  });

  const move = (step: 1 | -1) => {
    if (!open) setOpen(true);
    const off = list.map((o) => disabled(o));
    const next = stepActive(off, activeIndex, step);
    if (next < 0) return;
    setActive({ key: keyOf(list[next]), typed });
    document.getElementById(optionId(next))?.scrollIntoView({ block: "nearest" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return; // the Enter that ends an input method's composition
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter") {
      // An account field's Enter is never the form's: it picks, waits for the search, or does nothing.
      e.preventDefault();
      if (activeIndex >= 0) return pick(list[activeIndex]);
      if (!typed) return;
      if (waiting) queued.current = typed;
      else if (!open) setOpen(true);
      else {
        const first = list.find((o) => !disabled(o));
        if (first) pick(first);
      }
    } else if (e.key === "Escape") {
      queued.current = null;
      if (activeIndex < 0 && !expanded) return; // the search box's own Escape: it empties the box
      e.preventDefault();
      setActive(null);
      setOpen(false);
    }
  };

  return {
    listId,
    shown,
    options: list,
    activeIndex,
    optionId,
    keyOf,
    disabled,
    pick,
    inputProps: {
      // A search box, without the browser's own list of past entries over the list of matches.
      type: "search",
      autoComplete: "off",
      value: text,
      // Typing opens the list, emptying the box does not: a second Escape, the list closed, empties it (the search
      // box's own Escape) and the list stays closed.
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        onText(e.target.value);
        if (e.target.value) setOpen(true);
      },
      onFocus: () => setOpen(true),
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": expanded,
      "aria-controls": listId,
      "aria-activedescendant": expanded && activeIndex >= 0 ? optionId(activeIndex) : undefined,
      onKeyDown,
    } as const,
  };
}

/**
 * The list of `useListbox`: "No account matches." (or `empty`) for an empty answer, nothing before one. The active
 * option is marked so a sighted keyboard user sees what Enter takes.
 */
export function Listbox<T>({
  box,
  label,
  empty = "No account matches.",
  children,
}: {
  box: ReturnType<typeof useListbox<T>>;
  label: string;
  empty?: string;
  children: (option: T) => ReactNode;
}) {
  if (!box.shown) return null;
  if (!box.options.length) return <p className="text-xs text-slate-500">{empty}</p>;
  return (
    <ul id={box.listId} role="listbox" aria-label={label} className="max-h-48 overflow-auto rounded border border-slate-200">
      {box.options.map((o, i) => {
        const off = box.disabled(o);
        const on = i === box.activeIndex;
        return (
          <li
            key={box.keyOf(o)}
            id={box.optionId(i)}
            role="option"
            aria-selected={on}
            aria-disabled={off || undefined}
            // The focus stays in the search box.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => (off ? undefined : box.pick(o))}
            className={`flex w-full items-center gap-3 px-2 py-1 text-left text-sm ${
              off
                ? "cursor-not-allowed text-slate-400"
                : on
                  ? "cursor-pointer bg-blue-100 ring-1 ring-blue-500 ring-inset"
                  : "cursor-pointer hover:bg-blue-50"
            }`}
          >
            {children(o)}
          </li>
        );
      })}
    </ul>
  );
}
