// Runs before the first paint (a blocking script in the head): index.html carries the
// default run, drawn at build time, for a reader on a slow network. A page opened at a
// link to anything else (another scenario, an embed, a beat) must not show that run, even
// for a moment: it keeps the space and hides the picture until the app draws the right one.
//
// It also starts the download of the build the page will run, before boot.js (a module,
// run after parsing) asks for it: the first load for the default page, the whole app for
// any other link (see static/boot.js). Trunk's own preload links are turned off
// (`pattern_preload` in Trunk.toml), since they would fetch the first load for every link.
(function () {
  var h = location.hash;
  var deep = h && h !== '#';
  if (deep && h !== '#s=gc-pause') {
    document.documentElement.className += ' deep-link';
  }
  var tag = document.querySelector('script[data-wasm]');
  if (!tag) return;
  var js = tag.getAttribute('data-js');
  var wasm = tag.getAttribute('data-wasm');
  if (deep) {
    js = new URL('leaseline.js', new URL(js, location.href)).href;
    wasm = new URL('leaseline_bg.wasm', new URL(js, location.href)).href;
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
  preload('preload', wasm, 'fetch');
  // The whole app's stylesheet (static/boot.js adds it before the app starts).
  if (deep) {
    var css = document.createElement('link');
    css.rel = 'preload';
    css.as = 'style';
    css.href = new URL('tools.css', js).href;
    document.head.appendChild(css);
  }
})();
