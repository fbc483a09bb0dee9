//! The explore engine's jobs and evaluations as flat lists of 64-bit integers, for the
//! browser: the lead Web Worker hands chunks of schedules to helper workers and takes
//! their evaluations back (see [`super::engine`]). Integers, not JSON: a chunk crosses
//! between workers as one typed array (`BigInt64Array`), copied without parsing, and a
//! run key (a full 64-bit word) survives where a JavaScript number would round it.
//!
//! A fault is five words: its kind (by the fault kinds' table, `code`), then its fields (a node as a small number). A chunk is
//! its first job's index, the number of jobs, then each job as its number of faults and
//! the faults. An evaluation is the run key, the ordering key, the class (the number of
//! violation kinds — 0 for a safe run — the kinds, then the clients and the fault kinds,
//! each counted) and the candidates (−1 for none, else their number and the faults).

use super::engine::{Chunk, Eval};
use super::fault::{Added, Cut, FaultClass};
use super::ClassKey;
use crate::analysis::check::ViolationKind;
use crate::model::scenario::Kind;
use crate::vocab::ids::NodeId;

fn node(n: NodeId) -> i64 {
    match n {
        NodeId::Client(i) => i64::from(i),
        NodeId::Coord(i) => 16 + i64::from(i),
        NodeId::Storage => 32,
    }
}

fn node_of(w: i64) -> Result<NodeId, String> {
    match w {
        0..=15 => Ok(NodeId::Client(w as u8)),
        16..=31 => Ok(NodeId::Coord((w - 16) as u8)),
        32 => Ok(NodeId::Storage),
        _ => Err(format!("wire: no node {w}")),
    }
}

const CUTS: [Cut; 3] = [Cut::LockService, Cut::Storage, Cut::Both];

/// A fault's first word: 0 for a drift (a clock's rate, not a fault of the scenario), else
/// one more than the place of its scenario kind in [`Kind::ALL`] — a cut and its heal are
/// one partition, of kind [`Kind::Partition`].
fn code(k: Kind) -> i64 {
    // `Kind::ALL` is in declaration order, so a kind's place is its discriminant.
    1 + k as i64
}

fn fault(f: &Added, out: &mut Vec<i64>) {
    let w: [i64; 5] = match *f {
        Added::Drift { node: n, ppm } => [0, node(n), ppm, 0, 0],
        Added::Pause { node: n, at, ms } => [code(Kind::Pause), node(n), at, ms, 0],
        Added::Partition {
            client,
            cut,
            at,
            heal,
        } => [
            code(Kind::Partition),
            node(client),
            at,
            heal,
            CUTS.iter().position(|c| *c == cut).unwrap_or(0) as i64,
        ],
        Added::Jump { node: n, at, by } => [code(Kind::ClockJump), node(n), at, by, 0],
        Added::Delay {
            from,
            to,
            at,
            extra,
        } => [code(Kind::Delay), node(from), at, extra, node(to)],
        Added::Restart { node: n, at, down } => [code(Kind::Restart), node(n), at, down, 0],
        Added::Failover { node: n, at, down } => [code(Kind::Failover), node(n), at, down, 0],
        Added::FalsePositive { client, at } => [code(Kind::FalsePositive), node(client), at, 0, 0],
        Added::FailRenewals { at, ms } => [code(Kind::FailRenewals), 0, at, ms, 0],
    };
    out.extend_from_slice(&w);
}

/// Reads words in order; every read says what was missing.
struct Reader<'a>(&'a [i64]);

impl Reader<'_> {
    fn word(&mut self) -> Result<i64, String> {
        let (&w, rest) = self.0.split_first().ok_or("wire: cut short")?;
        self.0 = rest;
        Ok(w)
    }

    fn count(&mut self) -> Result<usize, String> {
        let n = self.word()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.0.len())
            .ok_or_else(|| format!("wire: bad count {n}"))
    }

    fn fault(&mut self) -> Result<Added, String> {
        let [k, n, a, b, c] = [
            self.word()?,
            self.word()?,
            self.word()?,
            self.word()?,
            self.word()?,
        ];
        let node = node_of(n);
        let cut = CUTS.get(c as usize).copied().ok_or("wire: no such cut");
        let kind = match k {
            0 => None,
            _ => Some(
                usize::try_from(k - 1)
                    .ok()
                    .and_then(|i| Kind::ALL.get(i).copied())
                    .ok_or_else(|| format!("wire: no fault kind {k}"))?,
            ),
        };
        // One line a kind: the table [`fault`] writes, read back.
        #[rustfmt::skip]
        let f = match kind {
            None => Added::Drift { node: node?, ppm: a },
            Some(Kind::Pause) => Added::Pause { node: node?, at: a, ms: b },
            Some(Kind::Partition) => Added::Partition { client: node?, cut: cut?, at: a, heal: b },
            Some(Kind::ClockJump) => Added::Jump { node: node?, at: a, by: b },
            Some(Kind::Delay) => Added::Delay { from: node?, to: node_of(c)?, at: a, extra: b },
            Some(Kind::Restart) => Added::Restart { node: node?, at: a, down: b },
            Some(Kind::Failover) => Added::Failover { node: node?, at: a, down: b },
            Some(Kind::FalsePositive) => Added::FalsePositive { client: node?, at: a },
            Some(Kind::FailRenewals) => Added::FailRenewals { at: a, ms: b },
            // The search adds a heal only with its cut, as one partition.
            Some(Kind::Heal) => return Err("wire: a heal travels with its partition".into()),
        };
        Ok(f)
    }

    fn faults(&mut self) -> Result<Vec<Added>, String> {
        let n = self.count()?;
        (0..n).map(|_| self.fault()).collect()
    }

    /// A counted list of indices into `all`.
    fn picks<T: Copy>(&mut self, all: &[T]) -> Result<Vec<T>, String> {
        let n = self.count()?;
        (0..n)
            .map(|_| {
                let i = self.word()?;
                all.get(i as usize)
                    .copied()
                    .ok_or_else(|| format!("wire: bad index {i}"))
            })
            .collect()
    }
}

fn picks<T: PartialEq>(items: &[T], all: &[T], out: &mut Vec<i64>) {
    out.push(items.len() as i64);
    out.extend(
        items
            .iter()
            .map(|x| all.iter().position(|a| a == x).unwrap_or(0) as i64),
    );
}

fn faults(fs: &[Added], out: &mut Vec<i64>) {
    out.push(fs.len() as i64);
    fs.iter().for_each(|f| fault(f, out));
}

/// A chunk of jobs as words.
pub fn chunk(c: &Chunk) -> Vec<i64> {
    let mut out = vec![c.first as i64, c.jobs.len() as i64];
    c.jobs.iter().for_each(|j| faults(j, &mut out));
    out
}

/// Reads [`chunk`]'s words.
pub fn read_chunk(words: &[i64]) -> Result<Chunk, String> {
    let mut r = Reader(words);
    let first = r.word()? as u64;
    let n = r.count()?;
    let jobs = (0..n).map(|_| r.faults()).collect::<Result<_, _>>()?;
    Ok(Chunk { first, jobs })
}

/// A chunk's evaluations as words (`first`: the chunk's first job).
pub fn evals(first: u64, es: &[Eval]) -> Vec<i64> {
    let mut out = vec![first as i64, es.len() as i64];
    for e in es {
        out.extend([e.run as i64, e.order as i64]);
        match &e.class {
            None => out.push(0),
            Some((kinds, clients, fault_kinds)) => {
                picks(kinds, &ViolationKind::ALL, &mut out);
                out.push(clients.len() as i64);
                out.extend(clients.iter().map(|&n| node(n)));
                picks(fault_kinds, &FaultClass::ALL, &mut out);
            }
        }
    }
    out
}

/// Reads [`evals`]' words: the chunk's first job and its evaluations.
pub fn read_evals(words: &[i64]) -> Result<(u64, Vec<Eval>), String> {
    let mut r = Reader(words);
    let first = r.word()? as u64;
    let n = r.count()?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let (run, order) = (r.word()? as u64, r.word()? as u64);
        let kinds = r.picks(&ViolationKind::ALL)?;
        let class: Option<ClassKey> = if kinds.is_empty() {
            None
        } else {
            let m = r.count()?;
            let clients = (0..m)
                .map(|_| r.word().and_then(node_of))
                .collect::<Result<_, _>>()?;
            Some((kinds, clients, r.picks(&FaultClass::ALL)?))
        };
        out.push(Eval { run, order, class });
    }
    Ok((first, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_and_evaluations_round_trip() {
        let fs = vec![
            Added::Drift {
                node: NodeId::COORD,
                ppm: -20_000,
            },
            Added::Pause {
                node: NodeId::Client(1),
                at: 15_051,
                ms: 25_000,
            },
            Added::Partition {
                client: NodeId::Client(0),
                cut: Cut::Both,
                at: 3,
                heal: 9,
            },
            Added::Jump {
                node: NodeId::Coord(4),
                at: 1,
                by: -7,
            },
            Added::Delay {
                from: NodeId::Client(2),
                to: NodeId::Storage,
                at: 5,
                extra: 6,
            },
            Added::Restart {
                node: NodeId::Storage,
                at: 1,
                down: 2,
            },
            Added::Failover {
                node: NodeId::COORD,
                at: 1,
                down: 0,
            },
            Added::FalsePositive {
                client: NodeId::Client(7),
                at: 4,
            },
            Added::FailRenewals { at: 8, ms: 9 },
        ];
        let c = Chunk {
            first: 1 << 40,
            jobs: vec![Vec::new(), fs.clone(), fs[2..4].to_vec()],
        };
        assert_eq!(read_chunk(&chunk(&c)).unwrap(), c);
        let es = vec![
            Eval {
                run: u64::MAX,
                order: 1 << 63,
                class: None,
            },
            Eval {
                run: 1,
                order: 0,
                class: Some((
                    vec![ViolationKind::StaleWrite, ViolationKind::DuplicateEffect],
                    vec![NodeId::Client(0), NodeId::Client(1)],
                    vec![FaultClass::Pause, FaultClass::FailRenewals],
                )),
            },
            Eval {
                run: 2,
                order: 3,
                class: None,
            },
        ];
        assert_eq!(read_evals(&evals(7, &es)).unwrap(), (7, es));
        assert!(read_evals(&[0, 5, 1]).is_err());
    }
}
