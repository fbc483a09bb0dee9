//! The first load's memory allocator: power-of-two size classes, one free list per class,
//! carved from memory the page grows.
//!
//! Why not Rust's default (dlmalloc): the first load has a weight budget (`scripts/size.sh`
//! holds it), and dlmalloc's splitting, merging and binning are several kilobytes of its
//! wasm, while this is a few hundred bytes. The first load is small and short-lived (the
//! default page's player; everything else loads the whole app, which keeps dlmalloc), so it
//! can trade memory for code:
//!
//! - every request is rounded up to a power of two (at least 8 bytes), so a block can take
//!   up to twice what was asked;
//! - a freed block waits on its class's list for the next request of the same class; blocks
//!   are never split, merged, or given back to the page.
//!
//! So the page's memory is bounded by its peak use in each class, at most doubled. Every
//! call is a few loads and stores: no search, no locking (the page has one thread; the
//! `Sync` below says so, it does not make it safe across threads).
//!
//! This file is also compiled by `tests/size_classes.rs`, which runs it natively over a
//! plain buffer (see [`Pages`]).

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr;

/// The wasm page size: memory grows in these.
pub const PAGE: usize = 65_536;

/// Class `k` holds blocks of `2^k` bytes, and `2^k` is an address-sized number.
const CLASSES: usize = usize::BITS as usize;

/// Where fresh memory comes from: `memory.grow` in the browser, a buffer in tests.
pub trait Pages {
    /// Adds `n` pages; the address of the first new byte, or `None` if there is no more.
    fn grow(&self, n: usize) -> Option<usize>;
}

/// The page's own memory, grown with `memory.grow`.
#[cfg(target_arch = "wasm32")]
pub struct MemoryGrow;

#[cfg(target_arch = "wasm32")]
impl Pages for MemoryGrow {
    fn grow(&self, n: usize) -> Option<usize> {
        let first = core::arch::wasm32::memory_grow(0, n);
        (first != usize::MAX).then(|| first * PAGE)
    }
}

/// The allocator: blocks in power-of-two classes over a [`Pages`] source.
pub struct SizeClasses<P> {
    pages: P,
    state: UnsafeCell<State>,
}

struct State {
    /// The unused part of the memory grown so far: `[next, end)`.
    next: usize,
    end: usize,
    /// The first free block of each class (0: none); each free block's first word holds
    /// the address of the next.
    free: [usize; CLASSES],
}

// The first load runs on the page's one thread (wasm32 without the atomics feature), and a
// global allocator must be `Sync`. Nothing here may be shared across threads.
unsafe impl<P: Sync> Sync for SizeClasses<P> {}

impl<P: Pages> SizeClasses<P> {
    pub const fn new(pages: P) -> Self {
        SizeClasses {
            pages,
            state: UnsafeCell::new(State {
                next: 0,
                end: 0,
                free: [0; CLASSES],
            }),
        }
    }

    /// The class of a request: the smallest power of two of at least 8 bytes that holds
    /// `size` and is a multiple of `align`. A layout's size is at most `isize::MAX`, so
    /// the power of two fits in a `usize`.
    pub fn class(layout: Layout) -> usize {
        let bytes = layout.size().max(layout.align()).max(8);
        bytes.next_power_of_two().trailing_zeros() as usize
    }

    /// A fresh block of class `k`, aligned to its own size (up to a page, which covers
    /// every alignment the page asks for), carved from the end of the memory grown so far.
    fn carve(&self, s: &mut State, k: usize) -> *mut u8 {
        let bytes = 1usize << k;
        let align = bytes.min(PAGE);
        loop {
            let Some(start) = s.next.checked_add(align - 1).map(|a| a & !(align - 1)) else {
                return ptr::null_mut();
            };
            if let Some(stop) = start.checked_add(bytes).filter(|&stop| stop <= s.end) {
                s.next = stop;
                return start as *mut u8;
            }
            // Grow by what the block lacks past the end. If something else grew the memory
            // meanwhile, the new pages do not follow ours: start again at them (the rest
            // is left).
            let lacking = start.saturating_add(bytes) - s.end;
            let n = lacking.div_ceil(PAGE);
            let Some(first) = self.pages.grow(n) else {
                return ptr::null_mut();
            };
            if first != s.end {
                s.next = first;
                s.end = first;
            }
            s.end += n * PAGE;
        }
    }
}

unsafe impl<P: Pages> GlobalAlloc for SizeClasses<P> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let k = Self::class(layout);
        // SAFETY: one thread, and no call here re-enters the allocator.
        let s = unsafe { &mut *self.state.get() };
        let head = s.free[k];
        if head == 0 {
            return self.carve(s, k);
        }
        // SAFETY: `head` is a free block of class k, its first word written by `dealloc`.
        s.free[k] = unsafe { *(head as *const usize) };
        head as *mut u8
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let k = Self::class(layout);
        let s = unsafe { &mut *self.state.get() };
        // SAFETY: the block is at least 8 bytes and aligned to 8, and no longer in use.
        unsafe { *(block as *mut usize) = s.free[k] };
        s.free[k] = block as usize;
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller keeps `new_size` within isize for this alignment.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if Self::class(new) == Self::class(layout) {
            return block; // the block already holds the new size
        }
        let moved = unsafe { self.alloc(new) };
        if !moved.is_null() {
            unsafe {
                ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
        }
        moved
    }
}
