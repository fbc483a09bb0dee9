// Runs before the first paint (a blocking script in the head): index.html carries the
// default run, drawn at build time, for a reader on a slow network. A page opened at a
// link to anything else (another scenario, an embed, a beat) must not show that run, even
// for a moment: it keeps the space and hides the picture until the app draws the right one.
(function () {
  var h = location.hash;
  if (h && h !== '#' && h !== '#s=gc-pause') {
    document.documentElement.className += ' deep-link';
  }
})();
