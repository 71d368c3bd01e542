// <dialback-widget>: an open shadow root holding the launcher button and the container the lazily
// loaded UI renders into. Styles are adopted stylesheets inside the shadow root, so nothing reaches
// the host's <head> and the host's CSS cannot reach in. Built with plain DOM calls (no innerHTML)
// so pages enforcing Trusted Types work too.
import launcherCss from './styles/launcher.css?inline';
import type { EntryConfig } from './config.ts';

export const tagName = 'dialback-widget';

export interface MountedWidget {
  host: HTMLElement;
  shadow: ShadowRoot;
  launcher: HTMLButtonElement;
  /** Where the UI chunk renders. */
  container: HTMLElement;
  /** The entry's own last resort when the UI chunk cannot be loaded: a sentence and the tel: link. */
  unavailable: HTMLElement;
}

export function adoptStyles(shadow: ShadowRoot, css: string): void {
  if (shadow.adoptedStyleSheets) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, sheet];
  } else {
    // Browsers without constructable stylesheets: a <style> in our own shadow root, still not the host's.
    shadow.appendChild(Object.assign(document.createElement('style'), { textContent: css }));
  }
}

const svgNs = 'http://www.w3.org/2000/svg';
// A telephone handset, drawn in as few bytes as it can be.
const phonePath = 'M7 2 4 3C3 7 5 12 9 16s9 6 12 5l1-3-4-3-3 2c-2-1-4-3-5-5l2-3z';

export function mountWidget(doc: Document, config: EntryConfig, [label, unavailableText]: readonly [string, string]): MountedWidget {
  // No custom element class: an undefined autonomous element takes a shadow root all the same, and a
  // page that already defined <dialback-widget> (an old copy, another vendor) keeps its class. Then
  // the widget takes a name of its own, so the page's constructor never touches our shadow root.
  const host = doc.createElement(customElements.get(tagName) ? tagName + '-own' : tagName);
  const shadow = host.attachShadow({ mode: 'open' });
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = '') => Object.assign(doc.createElement(tag), { className, textContent: text });
  adoptStyles(shadow, launcherCss);
  // CSSOM writes are allowed under a strict CSP (unlike style="" attributes in markup). The text
  // colour on it is derived in CSS (see launcher.css), so a light brand colour stays readable.
  if (config.color) host.style.setProperty('--dialback-color', config.color);

  const root = el('div', config.left ? 'root left' : 'root');
  root.lang = config.lang;
  const launcher = el('button', 'launcher');
  launcher.type = 'button';
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.setAttribute('aria-expanded', 'false');
  const svg = doc.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const path = doc.createElementNS(svgNs, 'path');
  path.setAttribute('d', phonePath);
  svg.append(path);
  launcher.append(svg, el('span', 'label', label));
  launcher.hidden = !config.launcher;

  const unavailable = el('p', 'unavailable', unavailableText + ' ');
  unavailable.setAttribute('role', 'alert');
  unavailable.hidden = true;
  if (config.phoneHref) {
    const call = el('a', '', config.phone!);
    call.href = config.phoneHref;
    unavailable.append(call);
  }
  const container = el('div', 'ui');
  root.append(container, unavailable, launcher);
  shadow.append(root);
  // A child of <html>, after <body>, and position: fixed, so nothing already laid out moves. Not in
  // <body>: single-page apps replace it (Turbo), rewrite it (innerHTML) or drop what they did not
  // render in it (hydration), and would take the widget with it, open dialog and call included.
  doc.documentElement.append(host);
  return { host, shadow, launcher, container, unavailable };
}
