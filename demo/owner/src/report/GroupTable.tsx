// The report's groups (by utm source, medium, campaign, department or page), with the period's
// totals in the footer. The relay lists at most its first 100 groups; when it left any out, their
// sum is the last row, "(other)", and a note above the table says so.
import { Fragment, h } from 'preact';
import type { Formats } from '../format.ts';
import type { LeadReport, ReportGroup } from '../types.ts';
import { TableWrap } from '../TableWrap.tsx';
import { byLabel } from './PeriodPicker.tsx';

const COLUMNS = ['opened', 'requested', 'placed', 'answered', 'talked', 'missed', 'failed', 'noConsent'] as const;
const HEAD: Record<(typeof COLUMNS)[number], string> = {
  opened: 'Opened',
  requested: 'Asked',
  placed: 'Placed',
  answered: 'Answered',
  talked: 'Talked',
  missed: 'Missed',
  failed: 'Failed',
  // Asked without the visitor's analytics consent: the widget read no cookie, so no client id.
  noConsent: 'No analytics consent',
};

function Cells({ g, formats }: { g: Omit<ReportGroup, 'key'>; formats: Formats }) {
  return (
    <>
      {COLUMNS.map((c) => (
        <td key={c} class="n" data-col={c}>
          {g[c]}
        </td>
      ))}
      <td class="n">{formats.seconds(g.medianAnswerSeconds)}</td>
    </>
  );
}

/** The relay's name for the row that sums the groups it did not list (report/lead-report.ts). */
const OTHER = '(other)';

export function GroupTable({ report, formats }: { report: LeadReport; formats: Formats }) {
  const listed = report.groups.filter((g) => g.key !== OTHER).length;
  return (
    <>
      {report.truncated ? (
        <p class="note" id="groups-cut">
          {listed > 0
            ? `Only the ${listed} groups with the most leads, then opens, are listed; all the others are summed in the last row, “Other groups”.`
            : 'There are too many groups of equal size to list any: all of them are summed in “Other groups”.'}
        </p>
      ) : null}
      <TableWrap label={`By ${byLabel(report.by)}`}>
        <table id="groups">
          <caption class="visually-hidden">Leads by {byLabel(report.by)}</caption>
          <thead>
            <tr>
              <th scope="col">{byLabel(report.by)}</th>
              {COLUMNS.map((c) => (
                <th key={c} scope="col" class="n">
                  {HEAD[c]}
                </th>
              ))}
              <th scope="col" class="n">
                Median to answer
              </th>
            </tr>
          </thead>
          <tbody>
            {report.groups.map((g) => (
              <tr key={g.key} data-key={g.key} class={g.key === OTHER ? 'other' : undefined}>
                <th scope="row">{g.key === OTHER ? 'Other groups' : g.key || '(not set)'}</th>
                <Cells g={g} formats={formats} />
              </tr>
            ))}
            {report.groups.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 2} class="empty">
                  No leads in this period.
                </td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr data-key="total">
              <th scope="row">Total</th>
              <Cells g={report.totals} formats={formats} />
            </tr>
          </tfoot>
        </table>
      </TableWrap>
    </>
  );
}
