// The explore search's Web Worker (issue #15): loads the search's own wasm
// (leaseline-explore.js beside this file) and runs one request per message, posting
// progress as it goes (with the ways it breaks found since the last message, as JSON text)
// and the report at the end. The page cancels by terminating it.
import init, { explore } from './leaseline-explore.js';

const ready = init({ module_or_path: new URL('leaseline-explore_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  await ready;
  const report = explore(e.data, (tried, total, violating, found) =>
    self.postMessage({ kind: 'progress', tried, total, violating, found }),
  );
  self.postMessage({ kind: 'done', report });
};
