import type { BrowserContext } from 'playwright-core';

/**
 * The e2e machine has no Internet, but Firebase's redirect sign-in reads its result through Google's gapi iframe
 * library (https://apis.google.com/js/api.js), loaded both by the app and by the Auth Emulator's helper iframe.
 * This stands in for the few gapi calls they make (load, iframes.getContext().open / getParentIframe,
 * register, send, ping, restyle) over plain postMessage, so the real SDK and the real emulator pages run unchanged.
 */
const GAPI_SHIM = `(() => {
  const script = document.currentScript;
  const handlers = {};
  const queued = {};
  const pending = {};
  let seq = 0;
  const FILTER = () => true;

  window.addEventListener('message', (e) => {
    const m = e.data;
    if (!m || m.__gapiShim !== 1) return;
    if (m.kind === 'call') {
      const answer = (fn) => {
        let result;
        try { result = fn(m.data); } catch (err) { console.error(err); }
        e.source.postMessage({ __gapiShim: 1, kind: 'reply', id: m.id, result: [result] }, '*');
      };
      if (handlers[m.name]) answer(handlers[m.name]);
      else (queued[m.name] = queued[m.name] || []).push(answer);
    } else if (m.kind === 'reply') {
      const cb = pending[m.id];
      delete pending[m.id];
      if (cb) { try { cb(m.result); } catch (err) { /* Firebase throws after reading the answer */ } }
    }
  });

  function endpoint(target, loaded) {
    return {
      register(name, fn) {
        handlers[name] = fn;
        for (const answer of queued[name] || []) answer(fn);
        delete queued[name];
      },
      send(name, data, cb) {
        const id = ++seq;
        if (cb) pending[id] = cb;
        loaded.then(() => target().postMessage({ __gapiShim: 1, kind: 'call', id, name, data }, '*'));
      },
      restyle() { return Promise.resolve(); },
      ping(cb) { return loaded.then(() => { if (cb) cb(); return []; }); },
    };
  }

  const context = {
    open(options, onOpen) {
      const frame = document.createElement('iframe');
      for (const [key, value] of Object.entries(options.attributes || {})) {
        if (key === 'style') Object.assign(frame.style, value);
        else frame.setAttribute(key, value);
      }
      const loaded = new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      return onOpen(endpoint(() => frame.contentWindow, loaded));
    },
    getParentIframe() { return endpoint(() => window.parent, Promise.resolve()); },
  };

  window.gapi = {
    load(_name, options) {
      const callback = typeof options === 'function' ? options : options && options.callback;
      setTimeout(() => callback && callback(), 0);
    },
    iframes: { getContext: () => context, CROSS_ORIGIN_IFRAMES_FILTER: FILTER, Iframe: function Iframe() {} },
  };

  const onload = script && new URL(script.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') setTimeout(() => window[onload](), 0);
  if (typeof window.gapi_onload === 'function') setTimeout(() => window.gapi_onload(), 0);
})();`;

/** Serves the gapi stand-in and fails the emulator page's CDN styles at once, for every page and frame. */
export async function installGapiShim(context: BrowserContext): Promise<void> {
  await context.route('https://apis.google.com/js/api.js*', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: GAPI_SHIM }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
}
