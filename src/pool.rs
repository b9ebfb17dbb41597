//! Content buffers kept from one read to the next.
//!
//! A read's content is a buffer of the size of its answer. A host that serves large reads
//! again and again (whole files with the limits off, pages of a few MiB) asks the
//! allocator for that much fresh memory on every call, and the system faults every page of
//! it in again: for a 1 MiB read in the MCP server that was 257 page faults and a fifth of
//! the call's CPU time. A host that hands each result's `content` back once it has written
//! it ([`BufferPool::give`]) lets the next read fill memory that is already there.

use std::sync::{Mutex, PoisonError};

/// Buffers whose capacity is below this are not kept: the allocator serves them from its
/// small-chunk lists. From 1 KiB on, glibc serves a request by first merging every small
/// chunk freed since (`malloc_consolidate`): in a host that made and freed many small
/// objects around the read (a JavaScript result, a Python str), a fresh 4 KiB content
/// buffer cost a tenth of a whole 4 KiB read.
const MIN_KEPT: usize = 1 << 10;

/// A bounded set of spent content buffers that a [`crate::Reader`] with
/// [`crate::Reader::buffers`] reads into before it asks for new memory.
///
/// At most `max_buffers` buffers are kept, each of at most `max_bytes` capacity (larger
/// ones are freed when given back, as are buffers under 1 KiB, which the allocator
/// serves cheaply anyway; when the pool is full, a buffer larger than the smallest kept
/// takes its place). The pool never grows a buffer and never holds one that a
/// result still uses: the memory it keeps is at most `max_buffers * max_bytes`.
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use rangeread::{BufferPool, LineSelection, Reader};
///
/// let pool = Arc::new(BufferPool::new(2, 4 << 20));
/// let reader = Reader::new().max_lines(0).max_bytes(0).buffers(pool.clone());
/// for _ in 0..3 {
///     let result = reader.read("README.md", LineSelection::from(..))?;
///     // ... write result.content out, then hand its buffer back for the next read:
///     pool.give(result.content);
/// }
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug)]
pub struct BufferPool {
    kept: Mutex<Vec<Vec<u8>>>,
    max_buffers: usize,
    max_bytes: usize,
}

impl BufferPool {
    /// A pool that keeps at most `max_buffers` buffers of at most `max_bytes` capacity.
    pub fn new(max_buffers: usize, max_bytes: usize) -> BufferPool {
        BufferPool {
            kept: Mutex::new(Vec::with_capacity(max_buffers)),
            max_buffers,
            max_bytes,
        }
    }

    /// Hands a spent buffer (a result's `content`, or any `Vec<u8>`) back for the next
    /// read. Its bytes are discarded; it is freed instead when the pool is full or its
    /// capacity is outside the pool's bounds.
    pub fn give(&self, buffer: impl Into<Vec<u8>>) {
        let mut buffer = buffer.into();
        let cap = buffer.capacity();
        if cap < MIN_KEPT || cap > self.max_bytes {
            return;
        }
        buffer.clear();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() < self.max_buffers {
            kept.push(buffer);
        } else if let Some(smallest) = kept.iter_mut().min_by_key(|b| b.capacity()) {
            // The larger buffer serves more reads without growing.
            if smallest.capacity() < cap {
                *smallest = buffer;
            }
        }
    }

    /// The number of buffers kept and their capacity in bytes.
    pub fn kept(&self) -> (usize, usize) {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        (kept.len(), kept.iter().map(Vec::capacity).sum())
    }

    /// A buffer for the next read: the largest one kept (empty), or a new empty one.
    pub(crate) fn take(&self) -> Vec<u8> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let largest = (0..kept.len()).max_by_key(|&i| kept[i].capacity());
        largest.map_or_else(Vec::new, |i| kept.swap_remove(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_fits_and_hands_out_the_largest() {
        let pool = BufferPool::new(2, 1 << 20);
        pool.give(Vec::with_capacity(100 << 10));
        pool.give(String::with_capacity(200 << 10));
        // Full: a smaller one is freed, a larger one takes the smallest one's place; too
        // small (under 1 KiB): freed.
        pool.give(Vec::with_capacity(50 << 10));
        pool.give(Vec::with_capacity(300 << 10));
        pool.give(Vec::with_capacity(512));
        assert_eq!(pool.kept(), (2, (500 << 10)));
        let big = pool.take();
        assert!(big.is_empty() && big.capacity() >= 300 << 10);
        assert!(pool.take().capacity() >= 200 << 10);
        assert_eq!(pool.take().capacity(), 0);
        // A small page's buffer is kept: the next small read reuses it.
        pool.give(Vec::with_capacity(4 << 10));
        assert_eq!(pool.kept(), (1, 4 << 10));
        // Too large: freed.
        pool.give(Vec::with_capacity(2 << 20));
        assert_eq!(pool.kept(), (1, 4 << 10));
    }

    #[test]
    fn a_given_buffer_comes_back_cleared() {
        let pool = BufferPool::new(1, 1 << 20);
        let mut v = Vec::with_capacity(128 << 10);
        v.extend_from_slice(b"old bytes");
        pool.give(v);
        assert!(pool.take().is_empty());
    }
}
