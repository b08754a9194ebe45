/**
 * At most one delivery every `windowMs`, nothing lost: the first value after a quiet spell is delivered at once and
 * opens a window; the values that arrive within it are merged and delivered together when it ends (which opens the
 * next). A burst of any length costs two deliveries a window at most one; a lone value is never delayed.
 */
export interface Throttle<T> {
  push(value: T): void;
  /** Drops what waits and the window's timer (the receiver has gone). */
  stop(): void;
}

export function throttle<T>(deliver: (value: T) => void, merge: (waiting: T, value: T) => T, windowMs: number): Throttle<T> {
  let waiting: { value: T } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = (value: T) => {
    deliver(value);
    timer = setTimeout(() => {
      timer = undefined;
      if (!waiting) return;
      const next = waiting.value;
      waiting = undefined;
      open(next);
    }, windowMs);
  };
  return {
    push(value) {
      if (!timer) open(value);
      else waiting = { value: waiting ? merge(waiting.value, value) : value };
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      waiting = undefined;
    },
  };
}
