//! The event queue: a min-heap ordered by (true time, sequence number).
//!
//! The sequence number is assigned at push time and breaks ties between events due at the
//! same millisecond, so the order never depends on heap internals: first scheduled, first
//! run. That one rule is what makes a seed reproduce a run exactly.

use crate::vocab::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone)]
struct Entry<E> {
    at: Time,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the earliest first.
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// Pending events of a run.
#[derive(Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            next_seq: 0,
        }
    }
}

impl<E> EventQueue<E> {
    pub fn push(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry { at, seq, event });
    }

    /// Queues `events` as if they had been pushed just before the entry numbered `seq`:
    /// they take the numbers `seq..`, and every entry numbered `seq` or later moves up by
    /// as many. The order of the entries already queued does not change (they all move
    /// up alike, or not at all), so the queue pops exactly what it would have popped had
    /// the events been pushed at that point.
    pub fn insert_before(&mut self, seq: u64, events: Vec<(Time, E)>) {
        let k = events.len() as u64;
        let mut all = std::mem::take(&mut self.heap).into_vec();
        for e in &mut all {
            if e.seq >= seq {
                e.seq += k;
            }
        }
        for (i, (at, event)) in events.into_iter().enumerate() {
            all.push(Entry {
                at,
                seq: seq + i as u64,
                event,
            });
        }
        self.next_seq += k;
        self.heap = BinaryHeap::from(all);
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.heap.pop().map(|e| (e.at, e.event))
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| e.at)
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_push_order() {
        let mut q = EventQueue::default();
        q.push(Time(5), "b");
        q.push(Time(1), "a");
        q.push(Time(5), "c");
        q.push(Time(5), "d");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
    }

    #[test]
    fn inserted_before_pops_as_if_pushed_then() {
        let pushes = [(5, "f0"), (5, "f1"), (1, "s0"), (5, "s1"), (7, "x")];
        // All pushed in order, the two inserted ones (g0, g1) right after f1.
        let mut whole = EventQueue::default();
        for (i, (t, e)) in pushes.iter().enumerate() {
            whole.push(Time(*t), *e);
            if i == 1 {
                whole.push(Time(5), "g0");
                whole.push(Time(4), "g1");
            }
        }
        let mut late = EventQueue::default();
        for (t, e) in pushes {
            late.push(Time(t), e);
        }
        late.insert_before(2, vec![(Time(5), "g0"), (Time(4), "g1")]);
        late.push(Time(5), "y");
        whole.push(Time(5), "y");
        let a: Vec<_> = std::iter::from_fn(|| whole.pop()).collect();
        let b: Vec<_> = std::iter::from_fn(|| late.pop()).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn ties_never_reorder_even_when_interleaved() {
        let mut q = EventQueue::default();
        for i in 0..100u32 {
            q.push(Time(i64::from(i % 3)), i);
        }
        let mut last = (Time(-1), 0u32);
        while let Some((t, i)) = q.pop() {
            assert!(t > last.0 || (t == last.0 && i > last.1));
            last = (t, i);
        }
    }
}
