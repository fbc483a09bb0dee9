// The recorder's Web Worker: loads the recorder's own wasm
// (leaseline-record.js beside this file), draws the frames of one recording per message and
// posts progress as it goes, then the file. A GIF is written by the wasm; a video encodes
// the same frames with the browser's VideoEncoder (VP8) and is put in a WebM file here.
// The page cancels by terminating the worker.
import init, { Recording } from './leaseline-record.js';

const ready = init({ module_or_path: new URL('leaseline-record_bg.wasm', import.meta.url) });

self.onmessage = async (e) => {
  await ready;
  const { kind, request } = e.data;
  let rec;
  try {
    rec = new Recording(request);
  } catch (err) {
    self.postMessage({ kind: 'error', message: String(err) });
    return;
  }
  const total = rec.frames();
  const t0 = performance.now();
  const progress = (done) => self.postMessage({ kind: 'progress', done, total });
  try {
    const bytes = kind === 'video' ? await video(rec, total, progress) : gif(rec, total, progress);
    const ms = Math.round(performance.now() - t0);
    self.postMessage({ kind: 'done', bytes, frames: total, ms }, [bytes.buffer]);
  } catch (err) {
    self.postMessage({ kind: 'error', message: String(err && err.message ? err.message : err) });
  }
};

function gif(rec, total, progress) {
  for (let i = 0; i < total; ) {
    i = rec.gif_step();
    if (i % 5 === 0 || i === total) progress(i);
  }
  return rec.gif_finish();
}

async function video(rec, total, progress) {
  if (typeof VideoEncoder === 'undefined' || typeof VideoFrame === 'undefined') {
    throw new Error('this browser cannot encode video here (no VideoEncoder)');
  }
  const width = rec.width();
  const height = rec.height();
  const fps = rec.fps();
  const config = { codec: 'vp8', width, height, bitrate: 2_000_000, framerate: fps };
  const support = await VideoEncoder.isConfigSupported(config);
  if (!support.supported) throw new Error('this browser cannot encode VP8 video');
  const chunks = [];
  let failure = null;
  const encoder = new VideoEncoder({
    output: (chunk) => {
      const data = new Uint8Array(chunk.byteLength);
      chunk.copyTo(data);
      chunks.push({ key: chunk.type === 'key', ms: Math.round(chunk.timestamp / 1000), data });
    },
    error: (err) => {
      failure = err;
    },
  });
  encoder.configure(config);
  const step = 1_000_000 / fps;
  for (let i = 0; i < total; i++) {
    if (failure) throw failure;
    const frame = new VideoFrame(rec.rgba(i), {
      format: 'RGBA',
      codedWidth: width,
      codedHeight: height,
      timestamp: Math.round(i * step),
      duration: Math.round(step),
    });
    // A key frame every two seconds, so a player can seek.
    encoder.encode(frame, { keyFrame: i % (2 * fps) === 0 });
    frame.close();
    while (encoder.encodeQueueSize > 4) await new Promise((r) => setTimeout(r, 0));
    if ((i + 1) % 5 === 0 || i + 1 === total) progress(i + 1);
  }
  await encoder.flush();
  encoder.close();
  if (failure) throw failure;
  return webm(chunks, { width, height, fps, durationMs: (total * 1000) / fps, link: rec.link() });
}

// A minimal WebM (Matroska) writer: the EBML header; a Segment with Info (the link as its
// title), Tracks (one VP8 video track), Tags (the link again, as a URL tag) and Clusters of
// SimpleBlocks, a new Cluster at each key frame. Sizes are known (the file is built in
// memory), so every element has its exact size.
const enc = new TextEncoder();

function vint(n) {
  // The size as an EBML variable-length integer, in the fewest bytes.
  for (let len = 1; len <= 8; len++) {
    if (n < 2 ** (7 * len) - 1) {
      const out = new Uint8Array(len);
      let v = n;
      for (let i = len - 1; i >= 0; i--) {
        out[i] = v % 256;
        v = Math.floor(v / 256);
      }
      out[0] |= 1 << (8 - len);
      return out;
    }
  }
  throw new Error('element too large');
}

function uint(n) {
  const bytes = [];
  do {
    bytes.unshift(n % 256);
    n = Math.floor(n / 256);
  } while (n > 0);
  return new Uint8Array(bytes);
}

function float64(x) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x);
  return b;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// An element: its ID's bytes, its size, its body (bytes, a string, a number or children).
function el(id, body) {
  let data;
  if (body instanceof Uint8Array) data = body;
  else if (typeof body === 'string') data = enc.encode(body);
  else if (typeof body === 'number') data = uint(body);
  else data = concat(body);
  return concat([new Uint8Array(id), vint(data.length), data]);
}

function webm(chunks, { width, height, fps, durationMs, link }) {
  const header = el([0x1a, 0x45, 0xdf, 0xa3], [
    el([0x42, 0x86], 1), // EBMLVersion
    el([0x42, 0xf7], 1), // EBMLReadVersion
    el([0x42, 0xf2], 4), // EBMLMaxIDLength
    el([0x42, 0xf3], 8), // EBMLMaxSizeLength
    el([0x42, 0x82], 'webm'), // DocType
    el([0x42, 0x87], 2), // DocTypeVersion
    el([0x42, 0x85], 2), // DocTypeReadVersion
  ]);
  const info = el([0x15, 0x49, 0xa9, 0x66], [
    el([0x2a, 0xd7, 0xb1], 1_000_000), // TimestampScale: 1 ms
    el([0x44, 0x89], float64(durationMs)), // Duration
    el([0x7b, 0xa9], link), // Title
    el([0x4d, 0x80], 'leaseline'), // MuxingApp
    el([0x57, 0x41], 'leaseline'), // WritingApp
  ]);
  const tracks = el([0x16, 0x54, 0xae, 0x6b], [
    el([0xae], [
      el([0xd7], 1), // TrackNumber
      el([0x73, 0xc5], 1), // TrackUID
      el([0x83], 1), // TrackType: video
      el([0x9c], 0), // FlagLacing
      el([0x86], 'V_VP8'), // CodecID
      el([0x23, 0xe3, 0x83], Math.round(1e9 / fps)), // DefaultDuration, ns
      el([0xe0], [el([0xb0], width), el([0xba], height)]), // Video: PixelWidth, PixelHeight
    ]),
  ]);
  const tags = el([0x12, 0x54, 0xc3, 0x67], [
    el([0x73, 0x73], [
      el([0x63, 0xc0], []), // Targets: the whole file
      el([0x67, 0xc8], [el([0x45, 0xa3], 'URL'), el([0x44, 0x87], link)]), // SimpleTag
    ]),
  ]);
  const clusters = [];
  let current = null;
  const flush = () => {
    if (current) clusters.push(el([0x1f, 0x43, 0xb6, 0x75], current.parts));
  };
  for (const c of chunks) {
    if (!current || c.key || c.ms - current.start > 30_000) {
      flush();
      current = { start: c.ms, parts: [el([0xe7], c.ms)] }; // Timestamp
    }
    const rel = c.ms - current.start;
    const head = new Uint8Array([0x81, (rel >> 8) & 0xff, rel & 0xff, c.key ? 0x80 : 0]);
    current.parts.push(el([0xa3], concat([head, c.data]))); // SimpleBlock
  }
  flush();
  const segment = el([0x18, 0x53, 0x80, 0x67], [info, tracks, tags, ...clusters]);
  return concat([header, segment]);
}
