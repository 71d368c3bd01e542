// "When do we open" in words. A chunk of its own, fetched only when the office is closed (the
// status says so, or the relay answers `closed`): most visitors never need it.
/**
 * A localized "today, 09:00" / "tomorrow, 09:00" / "Monday, 09:00" / "12 May, 09:00" for an ISO
 * instant, in the browser's time zone: the visitor's, not the office's.
 */
export function formatOpening(lang: string, iso: string, now: Date = new Date()): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((midnight(at) - midnight(now)) / 86_400_000);
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(lang, options).format(at);
  const day =
    days >= 0 && days < 2
      ? new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(days, 'day')
      : format(days > 0 && days < 7 ? { weekday: 'long' } : { day: 'numeric', month: 'long' });
  return `${day}, ${format({ hour: '2-digit', minute: '2-digit' })}`;
}
