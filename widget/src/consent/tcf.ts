// IAB TCF v2.2: the page's CMP answers `__tcfapi('addEventListener', 2, callback)` with its TC data,
// at once when it has it and again each time the visitor decides. The purposes the widget follows:
//   analytics: Purpose 1 (store and/or access information on a device: reading a cookie is that)
//              and Purpose 8 (measure content performance)
//   ads:       Purpose 1 and Purpose 7 (measure advertising performance)
// Where the GDPR does not apply (`gdprApplies: false`) both are granted. While the CMP shows its
// banner ('cmpuishown') the last answer stands (none at first).
import type { PageWindow, Signal } from './platforms.ts';

/** The CMP's last answer (undefined: the page has no CMP); listens from the first read that finds one (its stub is in the page from the start). */
export function watchTcf(win: PageWindow, changed: () => void): () => Signal | undefined {
  let answer: Signal | undefined;
  return () => {
    if (!answer && typeof win.__tcfapi === 'function') {
      answer = ['unknown', 'unknown'];
      win.__tcfapi('addEventListener', 2, (data: PageWindow | null, success: boolean) => {
        const purposes = Object(data?.purpose?.consents);
        const yes = (purpose: number) => (data!.gdprApplies === false || (purposes[1] && purposes[purpose]) ? 'granted' : 'denied');
        if (success && /^(tcloaded|useractioncomplete)$/.test(data?.eventStatus)) {
          answer = [yes(8), yes(7)];
          changed();
        }
      });
    }
    return answer;
  };
}
