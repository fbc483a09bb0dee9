// Starts Leaseline from a file rather than an inline script, so the page runs under a
// strict Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`) with no hash
// or nonce to keep in step with each build. Trunk writes the hashed file names into the
// data attributes of the script tag that loads this file (see `pattern_script` in
// Trunk.toml), and `{base}` there honours `--public-url`, so a sub-path build works too.
const tag = document.querySelector('script[data-wasm]');
const { default: init } = await import(tag.dataset.js);
await init({ module_or_path: tag.dataset.wasm });
