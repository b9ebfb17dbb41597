//! The checkpoint list of a [`LineIndex`](super::LineIndex): one count per block, kept
//! in shared segments, with runs of equal values stored as one value and a count.

use std::sync::Arc;

/// Entries per segment of [`Checkpoints`]: 32 KiB, below the allocator's mmap threshold.
pub(super) const SEGMENT: usize = 4096;

/// The checkpoint list, in shared fixed-size segments: cloning an index (as the cache
/// does for every read) copies a few pointers, and growing it copies at most the last
/// segment. A segment whose entries are all equal (blocks without a line feed: the holes
/// of a sparse file, a run of NUL bytes) is kept as its value and count, so that a 1 TiB
/// hole costs 4,096 small segments, not 128 MiB of equal numbers.
#[derive(Debug, Clone)]
pub(super) struct Checkpoints {
    segments: Vec<Segment>,
    /// How many entries there are.
    pub(super) len: usize,
}

#[derive(Debug, Clone)]
enum Segment {
    /// `count` entries, all `value`.
    Run {
        value: u64,
        count: usize,
    },
    Dense(Arc<Vec<u64>>),
}

impl Segment {
    fn last(&self) -> Option<u64> {
        match self {
            Segment::Run { value, .. } => Some(*value),
            Segment::Dense(v) => v.last().copied(),
        }
    }

    /// The segment of `values`: a run when they are all equal.
    fn of(values: &[u64]) -> Segment {
        match values.first() {
            Some(&v) if values.iter().all(|&x| x == v) => Segment::Run {
                value: v,
                count: values.len(),
            },
            _ => Segment::Dense(Arc::new(values.to_vec())),
        }
    }
}

impl Checkpoints {
    pub(super) fn new() -> Checkpoints {
        let mut c = Checkpoints {
            segments: Vec::new(),
            len: 0,
        };
        c.push(0);
        c
    }

    /// The checkpoints `values` (sorted, the first 0), as a scan would have pushed them.
    pub(super) fn from_values(values: &[u64]) -> Checkpoints {
        Checkpoints {
            segments: values.chunks(SEGMENT).map(Segment::of).collect(),
            len: values.len(),
        }
    }

    /// The entry at `i`.
    pub(super) fn get(&self, i: usize) -> u64 {
        match &self.segments[i / SEGMENT] {
            Segment::Run { value, .. } => *value,
            Segment::Dense(v) => v[i % SEGMENT],
        }
    }

    pub(super) fn push(&mut self, v: u64) {
        self.push_n(v, 1);
    }

    /// Appends `n` entries equal to `v`.
    pub(super) fn push_n(&mut self, v: u64, mut n: usize) {
        while n > 0 {
            if self.len.is_multiple_of(SEGMENT) {
                self.segments.push(Segment::Run { value: v, count: 0 });
            }
            let room = SEGMENT - self.len % SEGMENT;
            let k = n.min(room);
            let Some(last) = self.segments.last_mut() else {
                return;
            };
            match last {
                // A new segment starts as a run of `v`.
                Segment::Run { value, count } if *value == v => *count += k,
                Segment::Run { value, count } => {
                    // Grows by doubling up to SEGMENT, so small files keep small indexes.
                    let mut dense = vec![*value; *count];
                    dense.extend(std::iter::repeat_n(v, k));
                    *last = Segment::Dense(Arc::new(dense));
                }
                Segment::Dense(d) => Arc::make_mut(d).extend(std::iter::repeat_n(v, k)),
            }
            self.len += k;
            n -= k;
        }
    }

    /// The index of the first entry for which `pred` is false (entries are sorted).
    pub(super) fn partition_point(&self, pred: impl Fn(&u64) -> bool) -> usize {
        let seg = self
            .segments
            .partition_point(|s| s.last().is_some_and(|v| pred(&v)));
        match self.segments.get(seg) {
            Some(Segment::Dense(s)) => seg * SEGMENT + s.partition_point(&pred),
            Some(Segment::Run { value, count }) => {
                seg * SEGMENT + if pred(value) { *count } else { 0 }
            }
            None => self.len,
        }
    }

    pub(super) fn memory_bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Run { .. } => 0,
                Segment::Dense(v) => v.capacity() * 8,
            })
            .sum::<usize>()
            + self.segments.capacity() * std::mem::size_of::<Segment>()
    }
}
