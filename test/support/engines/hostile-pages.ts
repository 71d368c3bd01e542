// Host pages whose own JavaScript is hostile to embedded code, as real shops are: each kind is a
// script placed in <head> before the widget's tag (or a CSP header). `works`: the call goes through;
// otherwise the relay is unreachable and the visitor must get a sentence and the tel: link.

export interface HostileKind {
  name: string;
  head?: string;
  /** A CSP header for the page (the error recorder is inline, hence 'unsafe-inline'). */
  csp?: (relayUrl: string) => string;
  works: boolean;
}

const script = (code: string) => `<script>${code}</script>`;

export const hostileKinds: HostileKind[] = [
  {
    name: 'enumerable properties on Object.prototype (old plugins)',
    head: script(`Object.prototype.polluted = 1; Object.prototype.extend = function (o) { for (var k in o) this[k] = o[k]; return this; };`),
    works: true,
  },
  {
    name: 'Prototype.js: Array.prototype.toJSON and String.prototype extensions',
    head: script(
      `Array.prototype.toJSON = function () { return JSON.stringify(this.slice()); };
       String.prototype.strip = function () { return this.replace(/^\\s+|\\s+$/g, ''); };
       String.prototype.startsWith = function (s) { return this.indexOf(s) === 0; };
       String.prototype.toJSON = function () { return JSON.stringify(String(this)); };`,
    ),
    works: true,
  },
  {
    name: 'an AMD loader: global define and require',
    head: script(
      `window.define = function () { throw new Error('anonymous define() mismatch'); }; window.define.amd = { jQuery: true }; window.require = function () { throw new Error('require is not for you'); };`,
    ),
    works: true,
  },
  {
    name: 'fetch wrapped and Promise replaced (tracking and polyfill libraries)',
    head: script(
      `(function () {
         var Native = window.Promise, f = window.fetch;
         function P(executor) { return Reflect.construct(Native, [executor], P); }
         P.prototype = Object.create(Native.prototype, { constructor: { value: P, writable: true, configurable: true } });
         Object.setPrototypeOf(P, Native);
         window.Promise = P;
         window.fetch = function (input, init) { window.__fetched = (window.__fetched || 0) + 1; return P.resolve(f.call(window, input, init)); };
       })();`,
    ),
    works: true,
  },
  {
    name: 'a dialback global that is not ours, and an element with id="dialback"',
    head: script(`window.dialback = { version: '0.0.1', q: 'not a queue' };`) + '<div id="dialback"></div>',
    works: true,
  },
  {
    name: 'a <dialback-widget> element already defined by the page',
    head: script(
      `customElements.define('dialback-widget', class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: 'closed' }).textContent = 'theirs'; } });`,
    ),
    works: true,
  },
  {
    name: 'fetch blocked by the page',
    head: script(`window.fetch = function () { return Promise.reject(new TypeError('blocked by the page')); };`),
    works: false,
  },
  {
    name: 'a CSP without connect-src for the relay',
    csp: (relayUrl) => `default-src 'self'; script-src 'self' 'unsafe-inline' ${relayUrl}; style-src 'self'`,
    works: false,
  },
];

/** The three that broke or could break the widget's own code the most: run in every engine. */
export const worstThree = new Set([hostileKinds[0]!.name, hostileKinds[1]!.name, hostileKinds[3]!.name]);
