//! Small ordered maps and sets on a sorted `Vec`.
//!
//! Every map in the model is tiny (a node's armed timers, the keys storage holds, the
//! clients that believe right now), iteration order must be deterministic, and the whole
//! model ships to the browser. A sorted vector gives the same order as a `BTreeMap` with a
//! fraction of the generated code, which is what the wasm bundle pays for per key/value
//! type. Lookups are binary searches; inserts shift, which is cheap at these sizes.

use std::borrow::Borrow;

#[derive(Debug, PartialEq, Eq)]
pub struct VecMap<K, V> {
    items: Vec<(K, V)>,
}

impl<K: Clone, V: Clone> Clone for VecMap<K, V> {
    fn clone(&self) -> Self {
        VecMap {
            items: self.items.clone(),
        }
    }

    /// Into the room this map already has (a search copies its judge's state into the
    /// same map once per run).
    fn clone_from(&mut self, source: &Self) {
        self.items.clone_from(&source.items);
    }
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap { items: Vec::new() }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find<Q: Ord + ?Sized>(&self, k: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.items.binary_search_by(|(x, _)| x.borrow().cmp(k))
    }

    pub fn get<Q: Ord + ?Sized>(&self, k: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| &self.items[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, k: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(move |i| &mut self.items[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(k).is_ok()
    }

    /// Inserts or replaces; returns the old value.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.items[i].1, v)),
            Err(i) => {
                self.items.insert(i, (k, v));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, k: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| self.items.remove(i).1)
    }

    /// The value for `k`, inserting `default()` first if there is none.
    pub fn get_or_insert_with(&mut self, k: K, default: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&k) {
            Ok(i) => i,
            Err(i) => {
                self.items.insert(i, (k, default()));
                i
            }
        };
        &mut self.items[i].1
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.items.iter().map(|(k, v)| (k, v))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&K, &mut V)> {
        self.items.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.items.iter().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = VecMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

/// An ordered set on a sorted `Vec`.
#[derive(Debug, PartialEq, Eq)]
pub struct VecSet<K> {
    map: VecMap<K, ()>,
}

impl<K: Clone> Clone for VecSet<K> {
    fn clone(&self) -> Self {
        VecSet {
            map: self.map.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.map.clone_from(&source.map);
    }
}

impl<K> Default for VecSet<K> {
    fn default() -> Self {
        VecSet {
            map: VecMap::default(),
        }
    }
}

impl<K: Ord> VecSet<K> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Returns whether `k` was new.
    pub fn insert(&mut self, k: K) -> bool {
        self.map.insert(k, ()).is_none()
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.map.remove(k).is_some()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.map.contains_key(k)
    }

    pub fn iter(&self) -> impl Iterator<Item = &K> {
        self.map.iter().map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn clear(&mut self) {
        self.map.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The reference model is a `BTreeMap` that sees the same operations and nothing
    /// else: it is never copied from the map under test.
    #[test]
    fn behaves_like_a_btreemap() {
        let mut rng = crate::model::sim::rng::Rng::new(5);
        let mut a: VecMap<i64, i64> = VecMap::new();
        let mut b: BTreeMap<i64, i64> = BTreeMap::new();
        for i in 0..5_000 {
            let k = rng.range_i64(0, 60);
            // Clearing is rare so that the map grows to dozens of keys.
            match rng.range_i64(0, 40) {
                0..=9 => assert_eq!(a.insert(k, i), b.insert(k, i), "insert {k}"),
                10..=19 => assert_eq!(a.remove(&k), b.remove(&k), "remove {k}"),
                20..=27 => {
                    *a.get_or_insert_with(k, || 0) += 1;
                    *b.entry(k).or_insert(0) += 1;
                }
                28..=34 => {
                    if let Some(v) = a.get_mut(&k) {
                        *v -= 7;
                    }
                    if let Some(v) = b.get_mut(&k) {
                        *v -= 7;
                    }
                }
                35 => {
                    a.clear();
                    b.clear();
                }
                _ => assert_eq!(a.get(&k), b.get(&k), "get {k}"),
            }
            assert_eq!(a.contains_key(&k), b.contains_key(&k), "contains {k}");
            assert_eq!((a.len(), a.is_empty()), (b.len(), b.is_empty()));
            assert!(
                a.iter()
                    .map(|(k, v)| (*k, *v))
                    .eq(b.iter().map(|(k, v)| (*k, *v))),
                "after step {i}"
            );
            assert!(a.values().eq(b.values()));
        }
    }

    #[test]
    fn set_behaves_like_a_btreeset() {
        let mut rng = crate::model::sim::rng::Rng::new(9);
        let mut a: VecSet<i64> = VecSet::new();
        let mut b = std::collections::BTreeSet::new();
        for i in 0..3_000 {
            let k = rng.range_i64(0, 40);
            match rng.range_i64(0, 2) {
                0 => assert_eq!(a.insert(k), b.insert(k), "insert {k}"),
                1 => assert_eq!(a.remove(&k), b.remove(&k), "remove {k}"),
                _ => assert_eq!(a.contains(&k), b.contains(&k), "contains {k}"),
            }
            assert_eq!(a.len(), b.len(), "after step {i}");
            assert!(a.iter().eq(b.iter()), "after step {i}");
        }
    }

    #[test]
    fn set_and_borrowed_lookup() {
        let mut s: VecSet<String> = VecSet::new();
        assert!(s.insert("b".into()));
        assert!(s.insert("a".into()));
        assert!(!s.insert("a".into()));
        assert!(s.contains("a"));
        assert_eq!(s.iter().cloned().collect::<Vec<_>>(), ["a", "b"]);
        assert!(s.remove("a") && !s.contains("a"));
    }
}
