// The attributes only the dialog needs, read when the UI chunk loads rather than by the 3 KB entry.
// (Its own few lines, not shared with config.ts: the entry and the chunks share no runtime code.)
import type { DialogConfig } from '../config.ts';

export function readDialogConfig(script: Element | null): DialogConfig {
  const data = (name: string) => script?.getAttribute('data-' + name)?.trim() || null;
  const privacy = data('privacy-url');
  return {
    consentText: data('consent-text'),
    // An http(s) or site-relative address only: never a javascript: link in our markup.
    privacyUrl: privacy && /^(https?:\/\/|\/)/i.test(privacy) ? privacy : null,
    turnstileSiteKey: data('turnstile-sitekey'),
  };
}
