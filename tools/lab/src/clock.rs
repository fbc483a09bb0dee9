//! One clock for the whole lab: the host's CLOCK_MONOTONIC, which every process on the
//! machine reads alike, so a client's event times and the runner's fault times line up
//! without any exchange. A SIGSTOP freezes a process, not this clock — as the model's pause
//! freezes a node's handlers and not its clock.

/// The host's monotonic clock in nanoseconds.
pub fn now_ns() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own; CLOCK_MONOTONIC always exists.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec * 1_000_000_000 + ts.tv_nsec
}

/// A lab's start instant: all true times are nanoseconds since it.
#[derive(Clone, Copy, Debug)]
pub struct Epoch(pub i64);

impl Epoch {
    pub fn now(self) -> i64 {
        now_ns() - self.0
    }

    /// Sleeps until `at_ns` after the start (at once if that has passed).
    pub fn sleep_until(self, at_ns: i64) {
        let left = at_ns - self.now();
        if left > 0 {
            std::thread::sleep(std::time::Duration::from_nanos(left as u64));
        }
    }
}
