//! Recording a time range as an animated GIF: the file is GIF89a, has one image
//! per frame (120 for the default settings), carries the run's link in a comment
//! extension, is byte-identical across two encodes, and decodes — by a small LZW decoder
//! written here, which widens its codes as a browser's does — to exactly the rasterizer's
//! frames. The default gc-pause recording stays under 2 MB.

use leaseline::model::scenario::Scenario;
use leaseline::teach::presets::PRESETS;
use leaseline::view::export::raster::{Frame, PALETTE};
use leaseline::view::export::record::{Options, Recorder};

const LINK: &str = "https://example.org/leaseline/#s=gc-pause";

fn gc_pause() -> Scenario {
    leaseline::teach::course::open("gc-pause").unwrap()
}

fn record(sc: &Scenario, o: &Options) -> Vec<u8> {
    Recorder::new(sc, o, LINK)
        .unwrap()
        .encode_gif(&mut |_, _| {})
}

/// What a GIF holds, read block by block.
struct Decoded {
    width: usize,
    height: usize,
    palette: Vec<[u8; 3]>,
    comments: Vec<Vec<u8>>,
    /// Each frame composited over the ones before (all frames say "do not dispose").
    frames: Vec<Vec<u8>>,
    delays: Vec<u16>,
    loops: bool,
}

fn blocks(b: &[u8], p: &mut usize) -> Vec<u8> {
    let mut data = Vec::new();
    while b[*p] != 0 {
        let n = b[*p] as usize;
        data.extend_from_slice(&b[*p + 1..*p + 1 + n]);
        *p += 1 + n;
    }
    *p += 1;
    data
}

/// GIF's LZW, as a decoder reads it: the code width grows when the table reaches 2^width.
fn unlzw(data: &[u8], min: u8) -> Vec<u8> {
    let clear = 1usize << min;
    let end = clear + 1;
    let mut width = min as u32 + 1;
    let mut table: Vec<Vec<u8>> = (0..clear).map(|i| vec![i as u8]).collect();
    table.push(Vec::new());
    table.push(Vec::new());
    let (mut acc, mut n, mut pos) = (0u32, 0u32, 0usize);
    let mut prev: Option<Vec<u8>> = None;
    let mut out = Vec::new();
    loop {
        while n < width {
            assert!(pos < data.len(), "the data ran out before the end code");
            acc |= u32::from(data[pos]) << n;
            pos += 1;
            n += 8;
        }
        let code = (acc & ((1 << width) - 1)) as usize;
        acc >>= width;
        n -= width;
        if code == clear {
            width = min as u32 + 1;
            table.truncate(end + 1);
            prev = None;
            continue;
        }
        if code == end {
            return out;
        }
        let entry = match prev {
            None => table[code].clone(),
            Some(p) => {
                let e = if code < table.len() {
                    table[code].clone()
                } else {
                    assert_eq!(code, table.len(), "a code beyond the table");
                    let mut e = p.clone();
                    e.push(p[0]);
                    e
                };
                let mut added = p;
                added.push(e[0]);
                table.push(added);
                if table.len() == 1 << width && width < 12 {
                    width += 1;
                }
                e
            }
        };
        out.extend_from_slice(&entry);
        prev = Some(entry);
    }
}

fn decode(b: &[u8]) -> Decoded {
    assert_eq!(&b[..6], b"GIF89a");
    let width = u16::from_le_bytes([b[6], b[7]]) as usize;
    let height = u16::from_le_bytes([b[8], b[9]]) as usize;
    assert!(b[10] & 0x80 != 0, "a global colour table");
    let colours = 2usize << (b[10] & 7);
    let mut p = 13;
    let palette = (0..colours)
        .map(|i| [b[p + 3 * i], b[p + 3 * i + 1], b[p + 3 * i + 2]])
        .collect();
    p += 3 * colours;
    let mut d = Decoded {
        width,
        height,
        palette,
        comments: Vec::new(),
        frames: Vec::new(),
        delays: Vec::new(),
        loops: false,
    };
    let mut canvas = vec![0u8; width * height];
    loop {
        let t = b[p];
        p += 1;
        match t {
            0x3b => break,
            0x21 => {
                let label = b[p];
                p += 1;
                let body = blocks(b, &mut p);
                match label {
                    0xfe => d.comments.push(body),
                    0xff => d.loops |= body.starts_with(b"NETSCAPE2.0"),
                    0xf9 => {
                        assert_eq!(body[0] >> 2 & 7, 1, "do not dispose");
                        d.delays.push(u16::from_le_bytes([body[1], body[2]]));
                    }
                    _ => {}
                }
            }
            0x2c => {
                let r = |i: usize| u16::from_le_bytes([b[p + i], b[p + i + 1]]) as usize;
                let (x, y, w, h) = (r(0), r(2), r(4), r(6));
                assert_eq!(b[p + 8], 0, "no local table, not interlaced");
                p += 9;
                let min = b[p];
                p += 1;
                let px = unlzw(&blocks(b, &mut p), min);
                assert_eq!(px.len(), w * h, "the image's pixel count");
                assert!(x + w <= width && y + h <= height);
                for row in 0..h {
                    let at = (y + row) * width + x;
                    canvas[at..at + w].copy_from_slice(&px[row * w..(row + 1) * w]);
                }
                d.frames.push(canvas.clone());
            }
            other => panic!("unknown block {other:#x} at byte {}", p - 1),
        }
    }
    assert_eq!(p, b.len(), "nothing after the trailer");
    d
}

#[test]
fn the_default_gc_pause_recording_is_a_looping_gif_of_120_frames_with_its_link() {
    let sc = gc_pause();
    let o = Options::default();
    let t0 = std::time::Instant::now();
    let gif = record(&sc, &o);
    let took = t0.elapsed();
    println!(
        "default gc-pause GIF: {} bytes, encoded in {} ms",
        gif.len(),
        took.as_millis()
    );
    assert!(gif.starts_with(b"GIF89a"));
    assert!(gif.len() <= 2_000_000, "{} bytes is over 2 MB", gif.len());
    let d = decode(&gif);
    assert_eq!(d.frames.len(), 120);
    assert_eq!(d.delays, vec![10; 120], "10 fps: 10 hundredths a frame");
    assert!(d.loops);
    assert_eq!(d.comments, vec![LINK.as_bytes().to_vec()]);
    assert_eq!(&d.palette[..PALETTE.len()], &PALETTE[..]);
    // The first and last frames are exactly what the rasterizer drew.
    let rec = Recorder::new(&sc, &o, LINK).unwrap();
    assert_eq!((d.width, d.height), (720, rec.height()));
    let first: Frame = rec.frame(0);
    let last: Frame = rec.frame(119);
    assert_eq!(d.frames[0], first.px);
    assert_eq!(d.frames[119], last.px);
    assert_ne!(first.px, last.px);
    // A second encode is the same file, byte for byte.
    assert_eq!(record(&sc, &o), gif);
}

#[test]
fn a_range_and_settings_are_honoured_and_every_preset_records() {
    let o = Options {
        from_ms: Some(20_000),
        to_ms: Some(40_000),
        width: 480,
        fps: 5,
        seconds: 4,
    };
    let rec = Recorder::new(&gc_pause(), &o, LINK).unwrap();
    assert_eq!(
        (rec.timing.time(0), rec.timing.time(19)),
        (20_000, 40_000),
        "the first frame is the range's start, the last its end"
    );
    let d = decode(&rec.encode_gif(&mut |_, _| {}));
    assert_eq!((d.width, d.frames.len()), (480, 20));
    assert_eq!(d.delays[0], 20);
    // Every preset records at a small size (the decoder checks each file's structure).
    let small = Options {
        width: 320,
        fps: 2,
        seconds: 2,
        ..Options::default()
    };
    for p in PRESETS {
        let gif = record(&p.scenario(), &small);
        assert_eq!(decode(&gif).frames.len(), 4, "{}", p.name);
    }
    let bad = Options {
        width: 10,
        ..Options::default()
    };
    let err = Recorder::new(&gc_pause(), &bad, LINK).err().unwrap();
    assert!(err.starts_with("width:"), "{err}");
}

#[test]
fn a_long_link_is_carried_whole_across_comment_sub_blocks() {
    let link = format!("https://example.org/#sc={}", "A".repeat(700));
    let o = Options {
        width: 320,
        fps: 2,
        seconds: 1,
        ..Options::default()
    };
    let gif = Recorder::new(&gc_pause(), &o, &link)
        .unwrap()
        .encode_gif(&mut |_, _| {});
    assert_eq!(decode(&gif).comments, vec![link.into_bytes()]);
}

#[test]
fn the_command_line_writes_the_gif_and_says_its_size_and_frames() {
    let path = std::env::temp_dir().join(format!("leaseline-record-{}.gif", std::process::id()));
    let p = path.to_string_lossy().to_string();
    let args: Vec<String> = [
        "record",
        "gc-pause",
        "--gif",
        &p,
        "--fps",
        "5",
        "--seconds",
        "4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(leaseline::cli::run(&args, &mut out, &mut err), 0);
    let said = String::from_utf8(out).unwrap();
    let gif = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        said.contains(&format!("{} bytes, 20 frames of 720x", gif.len())),
        "{said}"
    );
    let d = decode(&gif);
    assert_eq!(d.comments, vec![b"#s=gc-pause".to_vec()]);
    assert_eq!(d.frames.len(), 20);
    // A refusal names the option.
    let bad: Vec<String> = ["record", "gc-pause", "--gif", &p, "--width", "9"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(leaseline::cli::run(&bad, &mut out, &mut err), 2);
    assert!(String::from_utf8(err).unwrap().contains("width: 9"));
}
