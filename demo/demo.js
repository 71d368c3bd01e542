// The demo page's own behaviour. Loaded before widget.js, so the queue stub below exists before the
// widget does, as it would on a customer's site.
window.dialback =
  window.dialback ||
  function () {
    // biome-ignore lint/complexity/noArguments: the queue stub site owners paste (docs/embedding.md), in ES5 so it runs on any page
    (window.dialback.q = window.dialback.q || []).push(arguments);
  };

// Show every widget event the page receives (they never carry the phone number).
for (const name of ['open', 'close', 'submit', 'success', 'error']) {
  window.addEventListener('dialback:' + name, (event) => {
    const list = document.getElementById('events');
    if (!list) return;
    const item = document.createElement('li');
    const detail = JSON.stringify(event.detail);
    item.textContent = `dialback:${name} ${detail === '{}' ? '' : detail}`;
    list.prepend(item);
  });
}

// Cookies exactly as Ringostat's tracking script and Google Analytics write them.
function setSampleCookies() {
  const write = (name, value) => {
    document.cookie = `${name}=${value}; path=/; max-age=${60 * 60 * 24 * 30}; samesite=lax`;
  };
  const utmz = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring_sale', utm_content: 'banner_a', utm_term: 'callback widget' };
  write('rngst2', encodeURIComponent(JSON.stringify({ utmz, sl: crypto.randomUUID ? crypto.randomUUID() : 'demo-session' })));
  write('_ga', `GA1.1.${Math.floor(Math.random() * 2e9)}.${Math.floor(Date.now() / 1000)}`);
}

document.addEventListener('DOMContentLoaded', () => {
  const state = document.getElementById('cookie-state');
  document.getElementById('set-cookies')?.addEventListener('click', () => {
    setSampleCookies();
    if (state) state.textContent = ' Done: utm_source=google, utm_medium=cpc, and a _ga client id.';
  });
  const hostile = document.getElementById('hostile-css');
  const toggle = document.getElementById('toggle-hostile');
  toggle?.addEventListener('click', () => {
    if (!(hostile instanceof HTMLLinkElement)) return;
    hostile.disabled = !hostile.disabled;
    toggle.setAttribute('aria-pressed', String(!hostile.disabled));
    toggle.textContent = hostile.disabled ? 'Switch on hostile CSS' : 'Switch off hostile CSS';
  });
});
