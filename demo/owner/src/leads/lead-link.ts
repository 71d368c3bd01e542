// A lead's own address: `#lead=<id>`. Notifications link to it; the page scrolls to that lead and
// highlights it.
export function linkedLead(hash = location.hash): string | null {
  const m = /^#lead=([0-9a-f-]{36})$/i.exec(hash);
  return m ? m[1]!.toLowerCase() : null;
}
export const leadRowId = (callbackId: string) => `lead-${callbackId}`;

/**
 * Shows the linked lead and keeps it in view while the sections above it are still loading (each
 * one that arrives pushes it down), until the owner moves on: scrolls, types or takes focus away.
 */
export function keepInView(row: HTMLElement): () => void {
  const show = () => row.scrollIntoView({ block: 'center' });
  const resized = new ResizeObserver(() => {
    if (document.activeElement === row) show();
  });
  const stop = () => {
    resized.disconnect();
    for (const type of ['wheel', 'touchmove', 'keydown'] as const) window.removeEventListener(type, stop);
  };
  for (const type of ['wheel', 'touchmove', 'keydown'] as const) window.addEventListener(type, stop, { once: true, passive: true });
  show();
  row.focus({ preventScroll: true });
  resized.observe(document.body);
  return stop;
}
