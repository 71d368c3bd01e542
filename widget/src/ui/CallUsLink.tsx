// The office's own number as a tel: link: the fallback whenever our path to a call is blocked.
import { h } from 'preact';
import type { WidgetConfig } from '../config.ts';
import { fill } from './i18n/format.ts';

export function CallUsLink({ config, template }: { config: WidgetConfig; template: string }) {
  if (!config.phone || !config.phoneHref) return null;
  return (
    <a class="call-us" href={config.phoneHref}>
      {fill(template, { phone: config.phone })}
    </a>
  );
}
