// Starts Leaseline from a file rather than an inline script, so the page runs under a
// strict Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`) with no hash
// or nonce to keep in step with each build. Trunk writes the hashed file names into the
// data attributes of the script tag that loads this file (see `pattern_script` in
// Trunk.toml), and `{base}` there honours `--public-url`, so a sub-path build works too.
//
// Three builds share the page; static/first-paint.js chose which one this page runs
// (`leaselineBuild`): the first load (the tag's files) on the default page, the links'
// player (leaseline-player.js) on a plain link to a built-in preset, lesson, fix or
// question (a page's or an embed's), the whole app (leaseline.js and leaseline_bg.wasm
// beside it) on any other link. The first two hand the page to the whole app when a
// reader asks for more.
const tag = document.querySelector('script[data-wasm]');
const here = new URL(tag.dataset.js, location.href);
const whole = {
  js: new URL('leaseline.js', here).href,
  wasm: new URL('leaseline_bg.wasm', here).href,
  css: new URL('tools.css', here).href,
};

// The whole app's own stylesheet (its panels, the editor, compare, embeds): added once
// (first-paint.js adds it at once on a link to anything but the default page), and the
// app starts when it has loaded, so nothing is drawn unstyled. The first load has none of
// those parts and never asks for it.
const toolsStyles = () =>
  new Promise((ok, fail) => {
    let l = document.querySelector('link[data-tools]');
    if (l?.sheet) return ok();
    if (!l) {
      l = document.createElement('link');
      l.rel = 'stylesheet';
      l.href = whole.css;
      l.dataset.tools = '';
      document.head.append(l);
    }
    l.addEventListener('load', () => ok());
    l.addEventListener('error', () => {
      l.remove();
      fail(new Error(`${whole.css}: did not load`));
    });
  });

// Called by a player (`ui::handover`) when the reader asks for a tool: fetches and
// compiles the whole app, and resolves to the function that starts it with the session
// handed over — as it stands once the app is ready, since the run on screen plays on
// meanwhile. A failed fetch rejects, and the player says so and offers to retry.
globalThis.leaselineUpgrade = async () => {
  const [mod, module] = await Promise.all([
    import(whole.js),
    fetch(whole.wasm).then((r) => {
      if (!r.ok) throw new Error(`${whole.wasm}: HTTP ${r.status}`);
      return r.arrayBuffer();
    }).then((bytes) => WebAssembly.compile(bytes)),
    toolsStyles(),
  ]);
  return (handoff) => {
    globalThis.leaselineHandoff = handoff;
    return mod.default({ module_or_path: module });
  };
};

// The whole app and an embed start once the whole app's stylesheet is in (it lays out
// the embed); the players of a page have none.
const start = async (b) => {
  const styled = b.js === whole.js || b.embed;
  const [{ default: init }] = await Promise.all([import(b.js), styled && toolsStyles()]);
  await init({ module_or_path: b.wasm });
};
const build = globalThis.leaselineBuild;
// A link with a picture drawn at build time fetches that first (static/first-paint.js).
await globalThis.leaselinePicture;
try {
  await start(build);
} catch (err) {
  // The links' player did not load — offline, after a visit that never needed it, while
  // the whole app is in the browser's cache: the whole app plays the link instead.
  if (!build.player) throw err;
  await start(whole);
}
