// The report's dialog-open beacon: sent once, when the dialog first opens in a page view (never at
// page load), with navigator.sendBeacon so it costs the visitor nothing and survives leaving the
// page. It says only where the open came from: the page's utm values, its path, the department the
// script preselects. No number, no cookie of ours. A chunk of its own, loaded at that first open.
import type { Attribution } from '../../server/src/contract.ts';

/** The script that loaded this widget (its chunks sit in ./chunks beside it): its data-relay, else its folder, is the relay. */
function widgetScript(): HTMLScriptElement | undefined {
  const src = new URL(/* @vite-ignore */ '../widget.js', import.meta.url).href;
  return [...document.scripts].find((s) => s.src.split(/[?#]/)[0] === src);
}

export function sendOpened(attribution: Attribution): void {
  const script = widgetScript();
  const relay = script?.dataset.relay || new URL(/* @vite-ignore */ '..', import.meta.url).href;
  const department = script?.dataset.department;
  const body = {
    ...(attribution.utmSource && { utmSource: attribution.utmSource }),
    ...(attribution.utmMedium && { utmMedium: attribution.utmMedium }),
    ...(attribution.utmCampaign && { utmCampaign: attribution.utmCampaign }),
    page: location.pathname.slice(0, 200),
    ...(department && { department: department.slice(0, 60) }),
  };
  navigator.sendBeacon?.(new URL('api/opened', relay.replace(/\/*$/, '/')).href, JSON.stringify(body));
}
