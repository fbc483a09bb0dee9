// Leaseline's fit-to-content script, for a course page that embeds Leaseline: it sets the
// height of each Leaseline frame on the page to the height the frame asks for in its
// `resize` events (docs/embedding.md, "Fit to content"). The Share dialog's embed code adds
// it as one line after the frame when "Fit the frame's height to its content" is ticked.
//
// It listens only to frames of the app it was loaded from (the script's own origin), and
// only to well-formed resize events; everything else is left to the page.
(() => {
  if (window.leaselineFit) return; // one listener however many embeds load it
  window.leaselineFit = true;
  const app = new URL(document.currentScript?.src ?? location.href).origin;
  addEventListener('message', (e) => {
    const d = e.data;
    if (e.origin !== app || !d || d.leaseline !== 1 || d.type !== 'resize') return;
    if (!Number.isInteger(d.height) || d.height < 1) return;
    for (const frame of document.querySelectorAll('iframe')) {
      if (frame.contentWindow === e.source) frame.style.height = `${d.height}px`;
    }
  });
})();
