// The owner view's lead report and the period's leads, behind the owner view's access (routes/owner.ts):
//   GET /owner/api/report?from=YYYY-MM-DD&to=YYYY-MM-DD&by=source|medium|campaign|department|page
//   GET /owner/api/report.csv?… the same groups as CSV, streamed
//   GET /owner/api/leads[?from=…&to=…] the held and failed leads, and with a period its leads
import { Readable } from 'node:stream';
import type { AppContext } from '../app/app-context.ts';
import { json } from '../http/reply.ts';
import type { Route } from '../http/router.ts';
import { ownerLeads } from '../owner/owner-leads.ts';
import { periodLeads } from '../owner/period-leads.ts';
import { type LeadReport, leadReport } from '../report/lead-report.ts';
import { reportCsv } from '../report/report-csv.ts';
import { readDimension, readOptionalPeriod, readPeriod } from '../report/report-query.ts';
import { createReportTurns } from '../report/report-turns.ts';

export function ownerReportRoutes(app: AppContext, access: NonNullable<Route['access']>, headers: Record<string, string>): Route[] {
  const timeZone = app.config.service.timeZone;
  const settings = { timeZone, talkSeconds: app.config.report.talkSeconds };
  const turn = createReportTurns<LeadReport>();
  const report = (params: URLSearchParams) => {
    const period = readPeriod(params, timeZone);
    const by = readDimension(params);
    return turn(`${period.from} ${period.to} ${by}`, () => leadReport(app.stores.report, period, by, settings));
  };
  return [
    { path: '/owner/api/report', origin: 'none', access, methods: { GET: async (rc) => json(200, await report(rc.url.searchParams), headers) } },
    {
      path: '/owner/api/report.csv',
      origin: 'none',
      access,
      methods: {
        GET: async (rc) => {
          const r = await report(rc.url.searchParams);
          const name = `leads-${r.by}-${r.from}-${r.to}.csv`;
          return {
            status: 200,
            body: Readable.from(reportCsv(r)),
            headers: { ...headers, 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
          };
        },
      },
    },
    {
      path: '/owner/api/leads',
      origin: 'none',
      access,
      methods: {
        GET: async (rc) => {
          const period = readOptionalPeriod(rc.url.searchParams, timeZone);
          const held = await ownerLeads(app);
          if (!period) return json(200, held, headers);
          return json(200, { ...held, from: period.from, to: period.to, timeZone, ...(await periodLeads(app, period)) }, headers);
        },
      },
    },
  ];
}
