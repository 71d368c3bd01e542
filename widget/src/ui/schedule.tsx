// "Call me later": when the office is closed, "as soon as you open (<time>)" or a day and time the
// visitor picks; while it is open, "right away" or a day and time. Slots come from the office's
// open windows (GET /api/status `windows`), every half hour, shown in the visitor's own time zone
// and language. A chunk of its own (design §7: ≤ 4 KB gzip), fetched only when the visitor may book
// a time: the office is closed, or the visitor asked for later.
import { Fragment, h } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { StatusResponse } from '../../../server/src/contract/contract.ts';
import { fill } from './i18n/format.ts';
import { formatOpening } from './i18n/opening.ts';
import type { Messages } from './i18n/types.ts';
import css from './schedule.css?inline';

export { css, formatOpening };

const stepMs = 30 * 60_000;
/** The earliest slot leaves the visitor time to send and the relay time to check it. */
const leadMs = 10 * 60_000;

export interface Day {
  /** The visitor's local date, e.g. "Tue Nov 24 2026". */
  key: string;
  label: string;
  /** Slot instants, epoch milliseconds. */
  slots: number[];
}

/** Every half-hour slot inside the windows from `now + leadMs` on, grouped by the visitor's local day. */
export function slotDays(lang: string, windows: StatusResponse['windows'], now: number): Day[] {
  const dayName = new Intl.DateTimeFormat(lang, { weekday: 'short', day: 'numeric', month: 'short' });
  const days: Day[] = [];
  for (const w of windows) {
    const end = Date.parse(w.closesAt);
    for (let t = Math.ceil(Math.max(Date.parse(w.opensAt), now + leadMs) / stepMs) * stepMs; t < end; t += stepMs) {
      const date = new Date(t);
      const key = date.toDateString();
      let day = days[days.length - 1];
      if (day?.key !== key) days.push((day = { key, label: dayName.format(date), slots: [] }));
      day.slots.push(t);
    }
  }
  return days;
}

export interface WhenProps {
  lang: string;
  messages: Messages;
  status: StatusResponse;
  /** The office is closed: the first choice is "as soon as you open", else "right away". */
  closed: boolean;
  /** The visitor asked for later (the "Call me later" button): the picker shows, and takes focus. */
  asked: boolean;
  onChange(scheduledFor: string | undefined): void;
}

export function When({ lang, messages: m, status, closed, asked, onChange }: WhenProps) {
  const days = useMemo(() => slotDays(lang, status.windows, Date.now()), [status, lang]);
  const time = useMemo(() => new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }), [lang]);
  // "As soon as you open": the next opening the relay named, else the first window's.
  const opening = status.nextOpenAt ?? status.windows.find((w) => Date.parse(w.opensAt) > Date.now())?.opensAt;
  const first = closed ? opening : undefined;
  const [later, setLater] = useState((asked || (closed && !opening)) && days.length > 0);
  const [dayKey, setDayKey] = useState(days[0]?.key);
  const [slot, setSlot] = useState(days[0]?.slots[0]);
  const day = days.find((d) => d.key === dayKey) ?? days[0];
  const laterInput = useRef<HTMLInputElement>(null);

  const pick = (at: number | undefined) => {
    setSlot(at);
    onChange(at === undefined ? undefined : new Date(at).toISOString());
  };
  // The form starts with the first choice made; a visitor who asked is taken to the picker.
  useLayoutEffect(() => {
    if (later) pick(slot);
    else onChange(first);
    if (asked) laterInput.current?.focus();
  }, []);

  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <div class="when">
      <fieldset>
        <legend>{m.whenLabel}</legend>
        {(!closed || opening) && (
          <label class="choice">
            <input
              type="radio"
              name="db-when"
              checked={!later}
              onChange={() => {
                setLater(false);
                onChange(first);
              }}
            />
            {closed && opening ? fill(m.asap, { when: formatOpening(lang, opening) ?? '' }) : m.rightAway}
          </label>
        )}
        {days.length > 0 && (
          <label class="choice">
            <input
              ref={laterInput}
              type="radio"
              name="db-when"
              checked={later}
              onChange={() => {
                setLater(true);
                pick(slot);
              }}
            />
            {m.atTime}
          </label>
        )}
      </fieldset>
      {later && day && (
        <>
          <fieldset class="days">
            <legend>{m.dayLabel}</legend>
            {days.map((d) => (
              <label key={d.key} class="day">
                <input
                  type="radio"
                  name="db-day"
                  checked={d === day}
                  onChange={() => {
                    setDayKey(d.key);
                    pick(d.slots[0]);
                  }}
                />
                {d.label}
              </label>
            ))}
          </fieldset>
          <div class="field">
            <label for="db-time">{m.timeLabel}</label>
            <select id="db-time" value={String(slot)} onChange={(e) => pick(Number(e.currentTarget.value))}>
              {day.slots.map((t) => (
                <option key={t} value={String(t)}>
                  {time.format(t)}
                </option>
              ))}
            </select>
          </div>
          {zone && <p class="hint">{fill(m.zoneHint, { zone })}</p>}
        </>
      )}
    </div>
  );
}
