// The owner view's session: what its cookie holds once /owner?token=… was right. It is
// `<issued>.<signature>`: the second it was issued (the relay's clock, app.now()) and an HMAC of that
// second keyed with OWNER_TOKEN. Any relay with the token can check it and nothing is stored, so it
// holds across relays and restarts; a new token ends every session at once. A session lasts
// SESSION_SECONDS from the token, never longer: opening the page with it does not renew it.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_SECONDS = 12 * 3600;
/** Relays' clocks differ by a little: a session issued by one a moment "ahead" is still good. */
const CLOCK_SKEW_SECONDS = 300;
const FORM = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface OwnerSessions {
  /** A new session value, issued now. */
  issue(): string;
  /** Whether `value` is a session this token issued, within its lifetime by the relay's clock. */
  valid(value: string): boolean;
}

export function createOwnerSessions(token: string, now: () => number): OwnerSessions {
  const sign = (issued: string) => createHmac('sha256', token).update(`dialback owner view session\0${issued}`).digest();
  const seconds = () => Math.floor(now() / 1000);
  return {
    issue() {
      const issued = String(seconds());
      return `${issued}.${sign(issued).toString('base64url')}`;
    },
    valid(value) {
      const parts = FORM.exec(value);
      if (!parts) return false;
      const age = seconds() - Number(parts[1]);
      if (age < -CLOCK_SKEW_SECONDS || age >= SESSION_SECONDS) return false;
      const given = Buffer.from(parts[2]!, 'base64url');
      return given.length === 32 && timingSafeEqual(given, sign(parts[1]!));
    },
  };
}
