//! Explore's memory is bounded by what it hands out, not by how many runs wait to be
//! extended: a two-fault search of a Redlock lesson — thousands of runs to extend, each
//! with tens of thousands of candidate faults — stays within a few megabytes. A browser
//! gives a Web Worker far less room than a native process, and a search that outgrows it
//! ends as an error instead of a report.
//!
//! The peak is measured by this test binary's own allocator, which counts the bytes live
//! (it is the only test here, so nothing else allocates meanwhile).

use leaseline::analysis::explore::{explore, Bounds, Ended};
use leaseline::teach::course::open;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counts are kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn a_two_fault_search_of_redlock_stays_within_a_few_megabytes() {
    let sc = open("redlock-restart/delayed-restart").expect("the lesson's fix");
    let mut b = Bounds::for_scenario(&sc);
    b.max_faults = 2;
    // Far into the second depth: thousands of depth-one runs wait to be extended.
    b.budget = 60_000;
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let r = explore(&sc, &b, 4096, &mut |_| true);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(r.ended, Ended::Budget, "the search reached its budget");
    assert!(
        r.orderings > 1_000,
        "many runs to extend: {} orderings",
        r.orderings
    );
    // Measured at 7 MB; keeping each waiting run's candidates outgrew 6 GB here.
    assert!(
        peak < 32 << 20,
        "peak {} MB while searching {} schedules",
        peak >> 20,
        r.schedules
    );
}
