// Time as the service shows it: the project's local wall-clock time.
// calldate is ISO 8601 with an offset WITHOUT a colon (`2019-06-02T09:30:47+0300`, facts: doc), and
// `from`/`to` are `YYYY-MM-DD HH:MM:SS` in the same zone. The zone has daylight saving time, so the
// offset is computed per instant with Intl rather than fixed.

export interface ProjectTime {
  /** `2019-06-02T09:30:47+0300` */
  formatCalldate(date: Date): string;
  /** `2019-06-02 09:30:47` */
  formatLocal(date: Date): string;
  /** Parses `YYYY-MM-DD HH:MM:SS` as local time in the zone; null when malformed or impossible. */
  parseLocal(text: string): Date | null;
}

const LOCAL_FORMAT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function projectTime(timeZone: string): ProjectTime {
  // Throws RangeError for an unknown zone: createSimulator lets that surface at startup.
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

  /** Wall-clock fields of `date` in the zone. */
  function wall(date: Date) {
    const out: Record<string, number> = {};
    for (const p of parts.formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value);
    return {
      year: out.year ?? 0,
      month: out.month ?? 1,
      day: out.day ?? 1,
      hour: out.hour ?? 0,
      minute: out.minute ?? 0,
      second: out.second ?? 0,
    };
  }

  /** Offset of the zone from UTC at `date`, in minutes (east positive), straight from Intl. */
  function exactOffset(date: Date): number {
    const w = wall(date);
    const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
    const whole = Math.floor(date.getTime() / 1000) * 1000;
    return Math.round((asUtc - whole) / 60_000);
  }

  // Intl is slow (an export of 6,500 rows spent most of its time here), and offsets change at most
  // once an hour: cache per UTC hour when both ends of the hour agree, else ask Intl exactly.
  const HOUR = 3_600_000;
  const hourly = new Map<number, number | null>();
  function offsetMinutes(date: Date): number {
    const hour = Math.floor(date.getTime() / HOUR);
    let cached = hourly.get(hour);
    if (cached === undefined) {
      if (hourly.size > 50_000) hourly.clear();
      const start = exactOffset(new Date(hour * HOUR));
      cached = start === exactOffset(new Date(hour * HOUR + HOUR - 1000)) ? start : null;
      hourly.set(hour, cached);
    }
    return cached ?? exactOffset(date);
  }

  const pad = (n: number, width = 2) => String(n).padStart(width, '0');

  function formatLocal(date: Date): string {
    const local = new Date(Math.floor(date.getTime() / 1000) * 1000 + offsetMinutes(date) * 60_000);
    return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  }

  return {
    formatLocal,
    formatCalldate(date) {
      const off = offsetMinutes(date);
      const sign = off < 0 ? '-' : '+';
      const abs = Math.abs(off);
      return `${formatLocal(date).replace(' ', 'T')}${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
    },
    parseLocal(text) {
      const m = LOCAL_FORMAT.exec(text);
      if (!m) return null;
      const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
      const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
      const check = new Date(asUtc);
      // Rejects 2024-02-30, 25:00:00 and the like instead of silently rolling over.
      if (
        check.getUTCFullYear() !== year ||
        check.getUTCMonth() !== month - 1 ||
        check.getUTCDate() !== day ||
        check.getUTCHours() !== hour ||
        check.getUTCMinutes() !== minute ||
        check.getUTCSeconds() !== second
      ) {
        return null;
      }
      // Two passes settle the offset around DST switches.
      let guess = asUtc - offsetMinutes(new Date(asUtc)) * 60_000;
      guess = asUtc - offsetMinutes(new Date(guess)) * 60_000;
      return new Date(guess);
    },
  };
}
