// The widget's events for the page: a CustomEvent on window, the handlers registered with
// dialback('on', …) and a dataLayer entry, each with its own copy of the detail; a failing handler
// or a broken dataLayer stops none of the others.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createEventHub } from '../../widget/src/events.ts';

const win = window as Window & { dataLayer?: unknown[] };

afterEach(() => {
  delete win.dataLayer;
  vi.restoreAllMocks();
});

describe('events', () => {
  test('CustomEvent on window, registered handlers and a dataLayer entry, each with a copy of the detail', () => {
    const hub = createEventHub(window);
    const dataLayer: unknown[] = [];
    win.dataLayer = dataLayer;
    const onWindow = vi.fn();
    const onHub = vi.fn();
    const listener = (e: Event) => onWindow((e as CustomEvent).detail);
    window.addEventListener('dialback:success', listener);
    // A site handler that edits what it was given must not change what the others see.
    hub.on('success', (detail) => {
      detail.requestId = 'edited by the site';
    });
    hub.on('success', onHub);
    const detail = { requestId: 'r-1', estimateSeconds: 20 };
    hub.emit('success', detail);
    window.removeEventListener('dialback:success', listener);
    expect(onWindow).toHaveBeenCalledWith({ requestId: 'r-1', estimateSeconds: 20 });
    expect(onHub).toHaveBeenCalledWith({ requestId: 'r-1', estimateSeconds: 20 });
    expect(dataLayer).toEqual([{ event: 'dialback_success', requestId: 'r-1', estimateSeconds: 20 }]);
    expect(detail).toEqual({ requestId: 'r-1', estimateSeconds: 20 });
    expect(onWindow.mock.calls[0]![0]).not.toBe(detail);
    expect(onHub.mock.calls[0]![0]).not.toBe(detail);
  });

  test('a failing site handler or a broken dataLayer does not stop the others', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const hub = createEventHub(window);
    win.dataLayer = {
      push: () => {
        throw new Error('gtm broke');
      },
    } as unknown as unknown[];
    const after = vi.fn();
    hub.on('open', () => {
      throw new Error('site handler broke');
    });
    hub.on('open', after);
    expect(() => hub.emit('open')).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
  });
});
