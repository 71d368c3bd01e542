// The choice of department: a chunk of its own, fetched only when /api/status lists more than one
// (DEPARTMENTS_FILE on the relay), so a site with one office pays nothing for its code (its three
// words come with the visitor's catalog: i18n/types.ts says why). `data-departments`
// limits the list on a page (`sales,support`), `data-department` picks the first choice. The dialog
// then speaks of the chosen department: its availability, its opening time and its bookable windows
// replace the status's top level, so the notice and "call me later" follow the choice.
import { h } from 'preact';
import type { DepartmentStatus, StatusResponse } from '../../../server/src/contract/contract.ts';
import type { ApiResult } from '../api.ts';
import type { Lang } from '../lang.ts';
import type { Messages } from './i18n/types.ts';

/** A department's name in the visitor's language, else English, else the first one given. */
const nameOf = (d: DepartmentStatus, lang: Lang) => d.name[lang] ?? d.name.en ?? Object.values(d.name)[0] ?? d.id;

/** The departments this page offers: those `data-departments` names (when any of them exists), in the relay's order. */
export function offered(all: readonly DepartmentStatus[], script: Element | null): DepartmentStatus[] {
  const wanted =
    script
      ?.getAttribute('data-departments')
      ?.split(',')
      .map((id) => id.trim()) ?? [];
  const kept = all.filter((d) => wanted.includes(d.id));
  return kept.length ? kept : [...all];
}

/** The status as the dialog shows it for department `id`: its own availability, hours and windows. */
export function viewOf(status: StatusResponse, d: DepartmentStatus): StatusResponse {
  return { ...status, available: d.available, openNow: d.openNow, nextOpenAt: d.nextOpenAt, windows: d.windows };
}

export interface Chooser {
  /** The status the dialog shows while `id` (else the first choice) is chosen, and the field (none when the page offers one department). */
  (status: StatusResponse | null, id: string | undefined, onChange: (values: { department: string }) => void): [StatusResponse | null, preact.JSX.Element | null];
  /** The first choice: `data-department` when offered, else the first department that can answer now, else the first. */
  first: string;
}

/** What the choice needs of the widget: the visitor's language (for department names) and its words, and the page's script tag. */
type DepartmentContext = { config: { lang: Lang }; messages: Pick<Messages, 'department'>; script: Element | null };

/** Made once the status is known (mount.tsx), for the page's script tag and the visitor's language. */
export function chooser(ctx: DepartmentContext, status: StatusResponse): Chooser {
  const { lang } = ctx.config;
  const list = offered(status.departments ?? [], ctx.script);
  const preset = ctx.script?.getAttribute('data-department')?.trim();
  const first = list.find((d) => d.id === preset) ?? list.find((d) => d.available) ?? list[0]!;
  const [label, open, closed] = ctx.messages.department;
  const pick = ((current, id, onChange) => {
    const chosen = list.find((d) => d.id === id) ?? first;
    const field =
      list.length < 2 ? null : (
        <div class="field department">
          <label for="db-department">{label}</label>
          <select id="db-department" value={chosen.id} onChange={(e) => onChange({ department: e.currentTarget.value })}>
            {list.map((d) => (
              <option key={d.id} value={d.id}>
                {d.available ? `${nameOf(d, lang)} (${open})` : d.openNow ? nameOf(d, lang) : `${nameOf(d, lang)} (${closed})`}
              </option>
            ))}
          </select>
        </div>
      );
    // The status of a re-render before the App has taken the status in: nothing to show yet.
    return [current && viewOf(current, chosen), field];
  }) as Chooser;
  pick.first = first.id;
  return pick;
}

/** Sets `ctx.pick` when the status `result` lists several departments, and hands the result on. */
export function adopt(ctx: DepartmentContext & { pick?: Chooser }, result: ApiResult<StatusResponse>): ApiResult<StatusResponse> {
  if (result.ok) ctx.pick = chooser(ctx, result.data);
  return result;
}
