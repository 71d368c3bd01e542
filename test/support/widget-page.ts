// Handles into the widget inside a host page, for browser tests. Playwright's role and label
// locators pierce open shadow roots, so tests find the widget the way a visitor (or a screen reader)
// would.
import type { Page } from 'playwright-core';

export function widget(page: Page) {
  const dialog = page.getByRole('dialog');
  return {
    launcher: page.locator('dialback-widget button.launcher'),
    dialog,
    phone: dialog.getByLabel('Your phone number'),
    submit: dialog.getByRole('button', { name: 'Call me back' }),
    liveRegion: page.locator('dialback-widget').getByRole('status'),
  };
}

/** Console lines the page logged, and uncaught page errors. */
export function consoleOf(page: Page) {
  const lines: string[] = [];
  const errors: string[] = [];
  page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => errors.push(error.message));
  return { lines, errors };
}
