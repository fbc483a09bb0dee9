//! The event queue: the pending events in order of (true time, sequence number).
//!
//! The sequence number is assigned at push time and breaks ties between events due at the
//! same millisecond, so the order never depends on the queue's internals: first scheduled,
//! first run. That one rule is what makes a seed reproduce a run exactly.
//!
//! A run has only a few dozen events pending at once, so the order is kept as a sorted list
//! of small keys (time, number, slot), latest first: popping takes the last key, and a push
//! finds its place by binary search and moves the earlier keys along by one (a few dozen
//! words; a `VecDeque`, earliest first, would move fewer, but costs the first load's wasm
//! about half a kilobyte for no measured gain). The events themselves (a message in flight
//! is a hundred bytes) wait in a slab of slots, moved once in and once out. (A binary heap
//! of whole events would sift them at every pop, a noticeable share of the explore search's
//! time.) Which slot an event sits in never matters to the order: the key alone decides.

use crate::vocab::time::Time;

/// An event's place in the order, and the slot of the slab holding it.
#[derive(Clone, Copy)]
struct Key {
    at: Time,
    seq: u64,
    slot: u32,
}

impl Key {
    /// What orders the queue: the slot is only where the event waits.
    fn order(&self) -> (Time, u64) {
        (self.at, self.seq)
    }
}

/// Pending events of a run.
pub struct EventQueue<E> {
    /// Sorted by [`Key::order`], latest first: the next event is the last.
    keys: Vec<Key>,
    /// The events by slot; `None`: a free slot, listed in `free`.
    slab: Vec<Option<E>>,
    free: Vec<u32>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            keys: Vec::new(),
            slab: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
        }
    }
}

impl<E: Clone> Clone for EventQueue<E> {
    /// A copy with the original's room, not just its length: a copied queue (a search's
    /// resumed run) is pushed to at once, and a copy sized to fit would grow (and move)
    /// on its first push.
    fn clone(&self) -> Self {
        fn roomy<T: Clone>(v: &[T], room: usize) -> Vec<T> {
            let mut c = Vec::with_capacity(room);
            c.extend_from_slice(v);
            c
        }
        EventQueue {
            keys: roomy(&self.keys, self.keys.capacity()),
            slab: roomy(&self.slab, self.slab.capacity()),
            free: roomy(&self.free, self.free.capacity()),
            next_seq: self.next_seq,
        }
    }
}

impl<E> EventQueue<E> {
    /// Puts `event` in a free slot (or a new one) and its key in its place in the order.
    fn insert(&mut self, at: Time, seq: u64, event: E) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = Some(event);
                slot
            }
            None => {
                self.slab.push(Some(event));
                (self.slab.len() - 1) as u32
            }
        };
        let key = Key { at, seq, slot };
        // After every key later than it (the sequence numbers are unique: no ties).
        let i = self.keys.partition_point(|k| k.order() > key.order());
        self.keys.insert(i, key);
    }

    pub fn push(&mut self, at: Time, event: E) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.insert(at, seq, event);
    }

    /// Queues `events` as if they had been pushed just before the entry numbered `seq`:
    /// they take the numbers `seq..`, and every entry numbered `seq` or later moves up by
    /// as many. The order of the entries already queued does not change (they all move
    /// up alike, or not at all), so the queue pops exactly what it would have popped had
    /// the events been pushed at that point.
    pub fn insert_before(&mut self, seq: u64, events: Vec<(Time, E)>) {
        let k = events.len() as u64;
        for key in &mut self.keys {
            if key.seq >= seq {
                key.seq += k;
            }
        }
        for (i, (at, event)) in events.into_iter().enumerate() {
            self.insert(at, seq + i as u64, event);
        }
        self.next_seq += k;
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        let key = self.keys.pop()?;
        let event = self.slab.get_mut(key.slot as usize)?.take()?;
        self.free.push(key.slot);
        Some((key.at, event))
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.keys.last().map(|k| k.at)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
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
