/**
 * A meeting point for `parties` concurrent callers: each call waits until all of them have called. Tests use it to
 * fix an interleaving (two passes both past a read before either writes) instead of hoping the scheduler makes it.
 */
export function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived >= parties) open();
    return opened;
  };
}
