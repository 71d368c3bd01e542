// What single-page apps do to <body>, and what the host-page scenarios read, as functions run in
// the page (self-contained: sent as source text).

/**
 * Each move navigates (the URL loses its query, so its utm_* are gone) and changes <body> the way a
 * kind of app does. Every new body has a button of its own with data-dialback-open.
 */
export const spaMoves = {
  /**
   * Turbo Drive: a new <body> from the next page's HTML replaces the old one, and the scripts in it
   * run again (the widget's script tag among them, with its data-* attributes).
   */
  'body swap (Turbo)': () => {
    const old = document.querySelector('script[src$="/widget.js"]')!;
    const body = document.createElement('body');
    body.innerHTML = '<h1>Page two</h1><p>Another page of the app.</p><button type="button" data-dialback-open>Call us back</button>';
    const again = document.createElement('script');
    for (const { name, value } of old.attributes) again.setAttribute(name, value);
    body.append(again);
    history.pushState({}, '', location.pathname + '/two');
    document.documentElement.replaceChild(body, document.body);
  },
  /** A router that renders the next page with innerHTML. */
  'body.innerHTML': () => {
    history.pushState({}, '', location.pathname + '/two');
    document.body.innerHTML = '<h1>Page two</h1><button type="button" data-dialback-open>Call us back</button>';
  },
  /** A framework hydrating <body>: children it did not render are dropped, then its own are added. */
  hydration: () => {
    history.pushState({}, '', location.pathname + '/two');
    for (const child of [...document.body.children]) if (!child.matches('h1, p')) child.remove();
    document.body.insertAdjacentHTML('beforeend', '<button type="button" data-dialback-open>Call us back</button>');
  },
} satisfies Record<string, () => void>;

export type SpaMove = keyof typeof spaMoves;

/** How many widget elements the document holds (anywhere, including outside <body>). */
export function widgetCount(): number {
  return document.querySelectorAll('dialback-widget, dialback-widget-own').length;
}

/** Contrast ratios (WCAG) of the phone field's and the country select's text on their own background. */
export function inputContrast(): { phone: number; select: number; colours: string[] } {
  const root = document.querySelector('dialback-widget')!.shadowRoot!;
  const channels = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = (css: string) => {
    const [r, g, b] = channels(css).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const ratio = (el: Element) => {
    const style = getComputedStyle(el);
    const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
    return { value: (a! + 0.05) / (b! + 0.05), colours: `${style.color} on ${style.backgroundColor}` };
  };
  const phone = ratio(root.querySelector('#db-phone')!);
  const select = ratio(root.querySelector('select')!);
  return { phone: phone.value, select: select.value, colours: [phone.colours, select.colours] };
}
