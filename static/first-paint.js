// Runs before the first paint (a blocking script in the head): index.html carries the
// default run, drawn at build time, for a reader on a slow network. A page opened at a
// link to anything else (another scenario, an embed, a beat) must not show that run, even
// for a moment: it keeps the space and hides the picture until the app draws the right one.
//
// It also sees that the build the page will run is downloading before boot.js (a module,
// run after parsing) asks for it (see static/boot.js). The head already preloads the first
// load's wasm (scripts/first-paint.mjs puts the link there, so the download starts as the
// head is parsed, a round trip before this file arrives): the default page adds its glue.
// A link to anything else runs the whole app instead: it removes that preload, which
// cancels the download in Chromium (the first load's bytes would only slow the whole
// app's), and preloads the whole app. The HTML standard leaves open whether removing a
// preload aborts it (whatwg/html issue 2931): a browser that lets it finish spends the
// first load's bytes for nothing on such a link — the price of the head's head start,
// which no markup can make depend on the fragment. Trunk's own preload links are turned
// off (`pattern_preload` in Trunk.toml), since they would fetch the first load for every
// link.
(function () {
  var h = location.hash;
  var deep = h && h !== '#';
  if (deep && h !== '#s=gc-pause') {
    document.documentElement.className += ' deep-link';
  }
  var tag = document.querySelector('script[data-wasm]');
  if (!tag) return;
  var js = tag.getAttribute('data-js');
  if (deep) {
    var first = document.getElementById('first-load-wasm');
    if (first) first.remove();
    js = new URL('leaseline.js', new URL(js, location.href)).href;
  }
  var preload = function (rel, href, as) {
    var l = document.createElement('link');
    l.rel = rel;
    l.href = href;
    l.crossOrigin = 'anonymous';
    if (as) {
      l.as = as;
      l.type = 'application/wasm';
    }
    document.head.appendChild(l);
  };
  preload('modulepreload', js);
  if (deep) {
    preload('preload', new URL('leaseline_bg.wasm', js).href, 'fetch');
    // The whole app's stylesheet (static/boot.js adds it before the app starts).
    var css = document.createElement('link');
    css.rel = 'preload';
    css.as = 'style';
    css.href = new URL('tools.css', js).href;
    document.head.appendChild(css);
  }
})();
