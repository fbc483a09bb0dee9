//! An animated GIF writer for recorded frames: GIF89a with the frames' fixed palette as
//! its global colour table, a loop-forever (NETSCAPE2.0) extension, a comment carrying the
//! run's link, and one image per frame with its delay.
//!
//! Consecutive frames of a recording differ only where the cursor has moved, so each image
//! after the first is just the rectangle that changed, drawn over the last one ("do not
//! dispose"); a frame with no change is one unchanged pixel, so every frame still has its
//! own image and delay. The LZW coder is our own (variable code width from the palette's
//! bits + 1 up to 12, a clear code when the table is full), so the bytes depend on nothing
//! but the frames: two encodes of the same frames are the same file.

use super::raster::Frame;

/// The bits per palette index for a palette of `n` colours (at least 2, as GIF requires
/// for its LZW minimum code size).
fn index_bits(n: usize) -> u8 {
    let mut b = 2;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// Appends `data` as GIF sub-blocks (at most 255 bytes each) and the empty terminator.
fn sub_blocks(out: &mut Vec<u8>, data: &[u8]) {
    for chunk in data.chunks(255) {
        out.push(chunk.len() as u8);
        out.extend_from_slice(chunk);
    }
    out.push(0);
}

fn u16le(out: &mut Vec<u8>, v: usize) {
    out.extend_from_slice(&(v.min(u16::MAX as usize) as u16).to_le_bytes());
}

/// Writes an animated GIF frame by frame; [`finish`](Self::finish) returns the file.
pub struct Gif {
    out: Vec<u8>,
    prev: Option<Frame>,
    bits: u8,
    delay_cs: u16,
    frames: usize,
}

impl Gif {
    /// Starts a `width × height` GIF with `palette` (at most 256 colours) as its colour
    /// table, `comment` in a comment extension and each frame shown `delay_cs` hundredths
    /// of a second.
    pub fn new(
        width: usize,
        height: usize,
        palette: &[[u8; 3]],
        comment: &str,
        delay_cs: u16,
    ) -> Gif {
        let bits = index_bits(palette.len()).min(8);
        let mut out = Vec::with_capacity(64 * 1024);
        out.extend_from_slice(b"GIF89a");
        u16le(&mut out, width);
        u16le(&mut out, height);
        // A global colour table of 2^bits entries; 8-bit colour resolution.
        out.push(0x80 | 0x70 | (bits - 1));
        out.push(0); // background: the first colour
        out.push(0); // square pixels
        for i in 0..1usize << bits {
            out.extend_from_slice(&palette.get(i).copied().unwrap_or([0, 0, 0]));
        }
        // Loop forever.
        out.extend_from_slice(&[0x21, 0xff, 0x0b]);
        out.extend_from_slice(b"NETSCAPE2.0");
        out.extend_from_slice(&[3, 1, 0, 0, 0]);
        if !comment.is_empty() {
            out.extend_from_slice(&[0x21, 0xfe]);
            sub_blocks(&mut out, comment.as_bytes());
        }
        Gif {
            out,
            prev: None,
            bits,
            delay_cs,
            frames: 0,
        }
    }

    /// How many frames have been added.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Adds a frame (the same size as the first): the whole of it the first time, after
    /// that the rectangle that differs from the frame before.
    pub fn frame(&mut self, f: &Frame) {
        let (x0, y0, x1, y1) = match &self.prev {
            None => (0, 0, f.width, f.height),
            Some(p) => changed(p, f).unwrap_or((0, 0, 1, 1)),
        };
        // Graphic control: "do not dispose" (1), no transparency, the delay.
        self.out.extend_from_slice(&[0x21, 0xf9, 4, 1 << 2]);
        self.out.extend_from_slice(&self.delay_cs.to_le_bytes());
        self.out.extend_from_slice(&[0, 0]);
        // The image descriptor: where, how big, no local colour table, not interlaced.
        self.out.push(0x2c);
        for v in [x0, y0, x1 - x0, y1 - y0] {
            u16le(&mut self.out, v);
        }
        self.out.push(0);
        let mut pixels = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            pixels.extend_from_slice(&f.px[y * f.width + x0..y * f.width + x1]);
        }
        self.out.push(self.bits);
        let data = lzw(&pixels, self.bits);
        sub_blocks(&mut self.out, &data);
        self.prev = Some(f.clone());
        self.frames += 1;
    }

    /// Ends the file.
    pub fn finish(mut self) -> Vec<u8> {
        self.out.push(0x3b);
        self.out
    }
}

/// The smallest rectangle `(x0, y0, x1, y1)` holding every pixel that differs, or `None`.
fn changed(a: &Frame, b: &Frame) -> Option<(usize, usize, usize, usize)> {
    let w = b.width;
    let mut r: Option<(usize, usize, usize, usize)> = None;
    for y in 0..b.height {
        let (ra, rb) = (&a.px[y * w..(y + 1) * w], &b.px[y * w..(y + 1) * w]);
        if ra == rb {
            continue;
        }
        let first = ra.iter().zip(rb).position(|(p, q)| p != q).unwrap_or(0);
        let last = w - ra
            .iter()
            .zip(rb)
            .rev()
            .position(|(p, q)| p != q)
            .unwrap_or(0);
        r = Some(match r {
            None => (first, y, last, y + 1),
            Some((x0, y0, x1, _)) => (x0.min(first), y0, x1.max(last), y + 1),
        });
    }
    r
}

/// Packs codes of varying width, least significant bit first, as GIF wants.
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u8,
}

impl Bits {
    fn put(&mut self, code: u16, width: u8) {
        self.acc |= u32::from(code) << self.n;
        self.n += width;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
}

/// GIF's LZW of `pixels` (each below 2^`min`): a clear code first, codes from `min + 1`
/// bits wide growing to 12, a clear code whenever the table is full, the end code last.
pub fn lzw(pixels: &[u8], min: u8) -> Vec<u8> {
    const MAX: usize = 4096;
    let alphabet = 1usize << min;
    let (clear, end) = (alphabet as u16, alphabet as u16 + 1);
    // The table as a trie: child[code * alphabet + pixel] is the code of that string plus
    // that pixel, or 0 (no real child is ever code 0, which is a single pixel).
    let mut child = vec![0u16; MAX * alphabet];
    let mut bits = Bits {
        out: Vec::with_capacity(pixels.len() / 2 + 16),
        acc: 0,
        n: 0,
    };
    let mut width = min + 1;
    let mut next = end + 1;
    bits.put(clear, width);
    let Some((&first, rest)) = pixels.split_first() else {
        bits.put(end, width);
        if bits.n > 0 {
            bits.out.push(bits.acc as u8);
        }
        return bits.out;
    };
    let mut w = u16::from(first);
    for &p in rest {
        let slot = w as usize * alphabet + p as usize;
        if child[slot] != 0 {
            w = child[slot];
            continue;
        }
        bits.put(w, width);
        if (next as usize) < MAX {
            child[slot] = next;
            next += 1;
            // The decoder adds each entry one code later than we do, so it widens its
            // codes one code later too: widen once the table holds more than 2^width.
            if next as usize > 1 << width && width < 12 {
                width += 1;
            }
        } else {
            bits.put(clear, width);
            child.fill(0);
            width = min + 1;
            next = end + 1;
        }
        w = u16::from(p);
    }
    bits.put(w, width);
    bits.put(end, width);
    if bits.n > 0 {
        bits.out.push(bits.acc as u8);
    }
    bits.out
}
