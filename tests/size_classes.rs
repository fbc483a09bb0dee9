//! The first load's allocator (`src/bin/lite/size_classes.rs`), run natively over a plain
//! buffer: blocks are aligned, never overlap while live, keep their contents, come back
//! from their class's free list, and running out of memory gives a null pointer, not a
//! crash.

#[path = "../src/bin/lite/size_classes.rs"]
#[allow(dead_code)]
mod size_classes;

use size_classes::{Pages, SizeClasses, PAGE};
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

/// `pages` pages of a leaked buffer, handed out in order like `memory.grow`.
struct Buffer {
    base: usize,
    used: Cell<usize>,
    pages: usize,
}

impl Buffer {
    fn new(pages: usize) -> Buffer {
        let raw = Box::leak(vec![0u8; (pages + 1) * PAGE].into_boxed_slice());
        let base = (raw.as_ptr() as usize).next_multiple_of(PAGE);
        Buffer {
            base,
            used: Cell::new(0),
            pages,
        }
    }
}

impl Pages for Buffer {
    fn grow(&self, n: usize) -> Option<usize> {
        let used = self.used.get();
        (used + n <= self.pages).then(|| {
            self.used.set(used + n);
            self.base + used * PAGE
        })
    }
}

fn layout(size: usize, align: usize) -> Layout {
    Layout::from_size_align(size, align).unwrap()
}

#[test]
fn classes_round_up_to_a_power_of_two_of_at_least_eight_bytes() {
    let class = SizeClasses::<Buffer>::class;
    assert_eq!(class(layout(1, 1)), 3);
    assert_eq!(class(layout(8, 8)), 3);
    assert_eq!(class(layout(9, 1)), 4);
    assert_eq!(class(layout(4, 16)), 4, "the alignment counts as a size");
    assert_eq!(class(layout(PAGE + 1, 8)), 17);
    assert_eq!(
        class(layout(isize::MAX as usize, 1)),
        usize::BITS as usize - 1
    );
}

#[test]
fn a_freed_block_is_reused_by_its_class_only() {
    let a = SizeClasses::new(Buffer::new(4));
    unsafe {
        let small = a.alloc(layout(24, 8));
        a.dealloc(small, layout(24, 8));
        let other = a.alloc(layout(8, 8));
        assert_ne!(
            other, small,
            "an 8-byte request does not take a 32-byte block"
        );
        let same = a.alloc(layout(30, 4));
        assert_eq!(
            same, small,
            "a request of the same class takes the freed block"
        );
        let fresh = a.alloc(layout(32, 8));
        assert_ne!(fresh, small);
    }
}

#[test]
fn realloc_keeps_the_block_within_its_class_and_the_contents_across() {
    let a = SizeClasses::new(Buffer::new(4));
    unsafe {
        let p = a.alloc(layout(20, 1));
        for i in 0..20 {
            *p.add(i) = i as u8;
        }
        assert_eq!(a.realloc(p, layout(20, 1), 32), p);
        let q = a.realloc(p, layout(32, 1), 100);
        assert_ne!(q, p);
        assert!((0..20).all(|i| *q.add(i) == i as u8));
        assert_eq!(
            a.alloc(layout(32, 1)),
            p,
            "the old block went back to its class"
        );
    }
}

#[test]
fn large_blocks_grow_the_memory_and_running_out_gives_null() {
    let a = SizeClasses::new(Buffer::new(5));
    unsafe {
        // Three pages round up to a block of four.
        let big = a.alloc(layout(3 * PAGE, 8));
        assert!(!big.is_null());
        assert_eq!(big as usize % PAGE, 0, "aligned to a page");
        big.add(4 * PAGE - 1).write(7);
        assert!(
            a.alloc(layout(2 * PAGE, 8)).is_null(),
            "only one page is left"
        );
        assert!(!a.alloc(layout(100, 8)).is_null(), "small blocks still fit");
    }
}

/// Many blocks of mixed sizes, freed in a shuffled order and asked for again: every live
/// block is aligned to its class, lies inside the buffer, overlaps no other live block,
/// and keeps the bytes written into it.
#[test]
fn live_blocks_never_overlap_and_keep_their_contents() {
    let buffer = Buffer::new(64);
    let (lo, hi) = (buffer.base, buffer.base + 64 * PAGE);
    let a = SizeClasses::new(buffer);
    let mut seed = 0x2545_f491_u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut live: Vec<(usize, Layout, u8)> = Vec::new();
    for round in 0..20_000u32 {
        if live.len() > 40 && next(3) == 0 || live.len() > 400 {
            let (p, l, mark) = live.swap_remove(next(live.len() as u64) as usize);
            let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, l.size()) };
            assert!(
                bytes.iter().all(|&b| b == mark),
                "round {round}: contents changed"
            );
            unsafe { a.dealloc(p as *mut u8, l) };
            continue;
        }
        let most = if next(10) == 0 { 9000 } else { 200 };
        let size = 1 + next(most) as usize;
        let l = layout(size, 1 << next(5));
        let p = unsafe { a.alloc(l) } as usize;
        let block = 1usize << SizeClasses::<Buffer>::class(l);
        assert!(
            p != 0 && p >= lo && p + size <= hi,
            "round {round}: out of the buffer"
        );
        assert_eq!(p % block.min(PAGE), 0, "round {round}: misaligned");
        for &(q, m, _) in &live {
            assert!(p + size <= q || q + m.size() <= p, "round {round}: overlap");
        }
        let mark = (round % 251) as u8;
        unsafe { std::ptr::write_bytes(p as *mut u8, mark, size) };
        live.push((p, l, mark));
    }
}
