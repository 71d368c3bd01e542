// A UiContext as the UI chunk builds it, for rendering components directly in jsdom.
import { vi } from 'vitest';
import type { WidgetConfig } from '../../widget/src/config.ts';
import type { EventDetail, EventName } from '../../widget/src/events.ts';
import { ConsentField } from '../../widget/src/ui/ConsentField.tsx';
import { messages as en } from '../../widget/src/ui/i18n/en.ts';
import type { Messages } from '../../widget/src/ui/i18n/types.ts';
import type { UiContext } from '../../widget/src/ui/ui-context.ts';

export function testConfig(overrides: Partial<WidgetConfig> = {}): WidgetConfig {
  return {
    relay: 'http://127.0.0.1:9',
    lang: 'en',
    country: 'UA',
    left: false,
    color: null,
    phone: '+380 44 111 22 33',
    phoneHref: 'tel:+380441112233',
    launcher: true,
    consentText: null,
    privacyUrl: null,
    turnstileSiteKey: null,
    ...overrides,
  };
}

export function testContext(config: WidgetConfig, messages: Messages = en) {
  const events: Array<[EventName, EventDetail | undefined]> = [];
  const ctx: UiContext = {
    config,
    script: null,
    messages,
    container: document.createElement('div'),
    told: [],
    catalog: async () => ({ messages }),
    pageAtLoad: location.href,
    emit: (name, detail) => void events.push([name, detail]),
    report: vi.fn(),
    adoptStyles: () => {},
    onOpenChange: () => {},
    ConsentField: config.consentText ? ConsentField : null,
  };
  return { ctx, events };
}
