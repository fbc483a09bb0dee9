// Runs before the first paint (a blocking script in the head). index.html carries the
// default run, drawn at build time, for a reader on a slow network. A page opened at a
// link to anything else must not show that run, even for a moment: it keeps the space
// and hides the picture, then puts in its place the picture of the run its link names —
// drawn at build time too, one file per built-in link (scripts/first-paint.mjs writes
// them into first/) — so a lesson, a fix, a question or an embed is seen as soon as the
// default page is, long before its player has arrived. A link naming anything else (a
// custom scenario, a time, a panel, a span) has no picture: the page waits for the app.
//
// It also chooses the build the page runs, and starts its download before boot.js (a
// module, run after parsing) asks for it (`leaselineBuild`):
//   - the first load (the tag's files) on the default page;
//   - the player (leaseline-player.js) on a plain link to a built-in preset, lesson, fix
//     or interview question, a page's or an embed's (with its options, or a span, which
//     has no picture): the first load's page with every lock service, fault, lesson and
//     question, and the embed's view and host messages;
//   - the whole app (leaseline.js) on any other link: a custom scenario, a time, a
//     panel, a recording.
// Nothing else is preloaded, so a page downloads nothing it does not use.
(function () {
  var h = location.hash;
  var deep = h && h !== '#';
  var other = deep && h !== '#s=gc-pause';
  if (other) document.documentElement.className += ' deep-link';
  var tag = document.querySelector('script[data-wasm]');
  if (!tag) return;
  var js = new URL(tag.getAttribute('data-js'), location.href);
  var wasm = new URL(tag.getAttribute('data-wasm'), location.href);
  var guideless = false;
  var spanned = false;
  var file = deep && pictureOf(h);
  // A plain link to a preset, a lesson, a fix or a question: the player. A name that is
  // not built in finds no picture, and the player hands it to the whole app, which says
  // what is wrong with it.
  var player = !!file;
  var embed = player && /\.embed$/.test(file);
  // The pictures draw the run's whole time axis; a span's page opens on the span's, so
  // it waits for its player with no picture.
  if (spanned) file = null;
  if (deep) {
    var name = player ? 'leaseline-player' : 'leaseline';
    js = new URL(name + '.js', js);
    wasm = new URL(name + '_bg.wasm', js);
  }
  window.leaselineBuild = { js: js.href, wasm: wasm.href, player: player, embed: embed };
  var link = function (rel, href, as) {
    var l = document.createElement('link');
    l.rel = rel;
    l.href = href;
    if (as) {
      // As wasm-bindgen's glue fetches it (a CORS fetch, same-origin credentials), so
      // the glue takes this download rather than starting its own.
      l.crossOrigin = 'anonymous';
      l.as = as;
      l.type = 'application/wasm';
    }
    document.head.appendChild(l);
    return l;
  };
  var build = function () {
    link('modulepreload', js.href);
    link('preload', wasm.href, 'fetch');
  };
  if (!deep) return build();
  // The whole app's stylesheet, which its embeds and panels need (static/boot.js waits for
  // it before the app starts); the embed's picture is laid out by it too. The player of
  // a page link draws the first load's page, which needs none of it.
  var tools = player && !embed ? null : link('stylesheet', new URL('tools.css', js).href);
  if (tools) tools.setAttribute('data-tools', '');
  if (!other || !file) return build();
  // The picture first: a few kilobytes the reader sees. The whole app's half megabyte
  // waits until it is in, or it would share the line and hold the picture up; the links'
  // player, half as heavy, starts beside it (measured on Slow 4G: Play about 130 ms
  // sooner, the picture about 20 ms later). boot.js waits for the picture before it
  // starts either.
  var text = fetch(new URL('first/' + file + '.html', js)).then(function (r) {
    return r.ok ? r.text() : null;
  });
  if (player) build();
  // Settled either way: a picture that cannot be fetched (offline, say) must not keep the
  // page from starting its player.
  window.leaselinePicture = player ? text.then(null, function () {}) : text.then(build, build);
  var styled = new Promise(function (ok) {
    if (!tools || tools.sheet) return ok();
    tools.addEventListener('load', ok);
    tools.addEventListener('error', ok);
  });
  var parsed = new Promise(function (ok) {
    if (document.readyState !== 'loading') return ok();
    document.addEventListener('DOMContentLoaded', ok);
  });
  Promise.all([text, styled, parsed]).then(function (got) {
    var html = got[0];
    var old = document.getElementById('first-paint');
    // No picture for this link, or the app is already up (it removed the old one).
    if (!html || !old) return;
    old.insertAdjacentHTML('afterend', html);
    old.remove();
    var guide = guideless && document.querySelector('#first-paint .guide');
    if (guide) guide.remove();
    document.documentElement.classList.remove('deep-link');
  }, function () {});

  // The picture's file for a link of only these keys — `s=<name>` (a preset, a lesson or
  // `lesson/fix`) or `quiz=<n>`, and `embed`, `autoplay`, `view`, `origins`, `from` and
  // `to` — as examples/first_paint.rs names it; null for any other link. Every built-in
  // name has its file, so the name is not checked against a list here (the list weighed
  // 850 bytes gzip on every first load): a link naming no built-in run asks for a file
  // that is not there, and waits for the app.
  function pictureOf(hash) {
    var keys = {};
    var pairs = hash.slice(1).split('&');
    for (var i = 0; i < pairs.length; i++) {
      var kv = pairs[i].split('=');
      if (kv.length !== 2 || keys.hasOwnProperty(kv[0])) return null;
      keys[kv[0]] = kv[1];
    }
    var name;
    if (keys.s !== undefined && keys.quiz === undefined && /^[a-z0-9-]+(\/[a-z0-9-]+)?$/.test(keys.s)) {
      name = 's-' + keys.s.replace('/', '~');
    } else if (keys.quiz !== undefined && keys.s === undefined && /^[1-9][0-9]?$/.test(keys.quiz)) {
      name = 'quiz-' + keys.quiz;
    } else {
      return null;
    }
    // An embed's options, as the player reads them (`session::link::plain`): none of
    // them changes the picture but `view=diagram`, which leaves a lesson's guide out, and
    // a span, which has none.
    var allowed = {
      s: /./,
      quiz: /./,
      embed: /^[01]$/,
      autoplay: /^[01]$/,
      view: /^(full|diagram)$/,
      origins: /^https?:\/\/[A-Za-z0-9.:-]+(,https?:\/\/[A-Za-z0-9.:-]+)*$/,
      from: /^[0-9]{1,20}$/,
      to: /^[0-9]{1,20}$/
    };
    for (var k in keys) {
      if (!allowed.hasOwnProperty(k) || !allowed[k].test(keys[k])) return null;
    }
    guideless = keys.view === 'diagram' && keys.embed === '1' && keys.quiz === undefined;
    spanned = keys.from !== undefined || keys.to !== undefined;
    // A question plays its own stops: a span of one is the whole app's to refuse.
    if (spanned && keys.quiz !== undefined) return null;
    return keys.embed === '1' ? name + '.embed' : name;
  }
})();
