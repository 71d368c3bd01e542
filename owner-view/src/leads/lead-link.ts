// A lead's own address: `#lead=<id>`. Notifications link to it; the page scrolls to that lead and
// highlights it.
export function linkedLead(hash = location.hash): string | null {
  const m = /^#lead=([0-9a-f-]{36})$/i.exec(hash);
  return m ? m[1]!.toLowerCase() : null;
}
export const leadRowId = (callbackId: string) => `lead-${callbackId}`;
