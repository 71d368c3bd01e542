// The invitation itself: a small, non-modal bubble beside the launcher, inside the widget's shadow
// root. It never takes focus (the visitor reaches it with Tab, just before the launcher), is
// announced through a polite live region that is in the tree before it, and goes with Esc, its
// close button, or the dialog opening.
import type { InviteContext } from '../context.ts';

export interface Bubble {
  /** Shows `text`; `choose` runs when the visitor picks it. */
  show(text: string, closeLabel: string, choose: () => void): void;
  hide(): void;
  shown(): boolean;
}

export function createBubble({ launcher, shadow }: InviteContext): Bubble {
  const doc = launcher.ownerDocument;
  // (`type` makes the buttons plain buttons; on a div it is a harmless unused property.)
  const el = (tag: string, text = '') => Object.assign(doc.createElement(tag), { textContent: text, type: 'button' });
  const live = el('div');
  live.setAttribute('aria-live', 'polite');
  launcher.before(live);
  const onKey = (event: KeyboardEvent) => event.key === 'Escape' && hide();

  function hide() {
    // Focus inside the bubble would fall to <body> with it: it goes to the launcher instead.
    const hadFocus = live.contains(shadow.activeElement);
    live.replaceChildren();
    doc.removeEventListener('keydown', onKey);
    if (hadFocus) launcher.focus();
  }

  return {
    show(text, closeLabel, choose) {
      const box = el('div');
      const open = el('button', text);
      const close = el('button', '×');
      box.className = 'invite';
      close.setAttribute('aria-label', closeLabel);
      open.onclick = () => {
        hide();
        choose();
      };
      close.onclick = hide;
      box.append(open, close);
      live.append(box);
      doc.addEventListener('keydown', onKey);
    },
    hide,
    shown: () => live.hasChildNodes(),
  };
}
