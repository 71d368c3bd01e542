// Asks the call-tracking service one read-only question with the real Auth-key (which SIP accounts
// are online: no call is placed, nothing changes there), and reads the clock from its answer's Date
// header. A wrong key, an unreachable service or a clock off by minutes would otherwise show only
// when the first visitor's call fails (or, for the clock, when booked calls ring at the wrong time
// and outcomes are matched against the wrong part of the call log).
import type { ServiceSettings } from '../config/index.ts';
import { CallTrackingConnectError, CallTrackingTimeoutError } from '../calltracking/errors.ts';
import { createTransport } from '../calltracking/transport.ts';
import { type Check, fail, pass } from './check.ts';

/** More than this between our clock and the service's is a failure (the Date header has whole seconds). */
export const MAX_CLOCK_SKEW_SECONDS = 30;

export async function checkService(service: ServiceSettings, now: () => number): Promise<Check[]> {
  const transport = createTransport({ baseUrl: service.baseUrl, authKey: service.authKey, timeoutMs: service.upstreamTimeoutMs });
  const where = service.external ? 'CALLTRACKING_BASE_URL' : 'the embedded simulator';
  try {
    const sent = now();
    const answer = await transport.send({ method: 'GET', path: '/sipstatus/online' });
    const checks: Check[] = [];
    if (answer.status === 401 || answer.status === 403) {
      checks.push(fail('service', `${where} refused the Auth-key (HTTP ${answer.status}): set CALLTRACKING_AUTH_KEY to the key of the project's API integration`));
    } else if (answer.status !== 200) {
      checks.push(fail('service', `${where} answered HTTP ${answer.status} to GET /sipstatus/online: check CALLTRACKING_BASE_URL (e.g. https://api.ringostat.net)`));
    } else {
      let online: unknown;
      try {
        online = JSON.parse(answer.text);
      } catch {
        online = null;
      }
      if (Array.isArray(online)) checks.push(pass('service', `${where} took the Auth-key: ${online.length} SIP account(s) online`));
      else checks.push(fail('service', `${where} did not answer /sipstatus/online with a list: is CALLTRACKING_BASE_URL the service's API?`));
    }
    checks.push(clockCheck(answer.headers.date, (sent + now()) / 2));
    return checks;
  } catch (err) {
    const why =
      err instanceof CallTrackingConnectError
        ? `cannot connect to ${where} (${service.baseUrl}): ${err.message}; check the URL, DNS and the firewall`
        : err instanceof CallTrackingTimeoutError
          ? `${where} did not answer within UPSTREAM_TIMEOUT_MS (${service.upstreamTimeoutMs} ms)`
          : `${where} failed: ${(err as Error).message}`;
    return [fail('service', why), fail('clock', 'not checked: the service did not answer')];
  } finally {
    await transport.close();
  }
}

function clockCheck(date: string | string[] | undefined, atMs: number): Check {
  const theirs = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(theirs)) return fail('clock', 'the service sent no Date header to compare the clock with');
  const skew = Math.round((atMs - theirs) / 1000);
  if (Math.abs(skew) > MAX_CLOCK_SKEW_SECONDS) {
    return fail('clock', `this machine's clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the service's: keep it synchronised (chrony, systemd-timesyncd)`);
  }
  return pass('clock', `within ${Math.max(1, Math.abs(skew))} s of the service's`);
}
