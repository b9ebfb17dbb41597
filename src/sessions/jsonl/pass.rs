//! A pass over a whole transcript that is kept and continued over appended lines: its
//! progress ([`Pass`]), and [`follow`], such a pass for any state a store builds.

use super::lines::forward;
use crate::cache::IndexCache;
use crate::error::Result;
use crate::source::Source;

/// The progress of a full pass over a file, kept to continue it when the file grows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pass<T> {
    /// Offset just past the last LF-terminated line taken into account.
    pub(crate) done: u64,
    pub(crate) state: T,
}

/// The state that `take` builds from the lines of `src`, one line at a time, kept in
/// `cache` under `slot` and continued over appended lines: each LF-terminated line is
/// taken once per file (until the file is rewritten or replaced), an unterminated last
/// line only into the copy returned (it may still be being written). `cost` tells the
/// cache the heap size of a state.
///
/// # Errors
///
/// [`crate::Error::Changed`] when the file changed during the pass, or an I/O error.
pub(crate) fn follow<T>(
    cache: &IndexCache,
    slot: u64,
    src: &Source,
    mut take: impl FnMut(&mut T, &[u8]),
    cost: impl Fn(&T) -> usize,
) -> Result<T>
where
    T: Clone + Default + Send + Sync + 'static,
{
    let mut pass = cache
        .attachment::<Pass<T>>(src, slot, true)
        .map(|(p, _)| p)
        .unwrap_or_default();
    let mut state = std::mem::take(&mut pass.state);
    let mut tail = None;
    pass.done = forward(src, pass.done, src.len(), |line| {
        if line.terminated {
            take(&mut state, line.bytes);
        } else {
            let mut t = state.clone();
            take(&mut t, line.bytes);
            tail = Some(t);
        }
        true
    })?;
    src.check_unchanged()?;
    let result = tail.unwrap_or_else(|| state.clone());
    let bytes = cost(&state);
    pass.state = state;
    cache.attach(src, slot, pass, bytes);
    Ok(result)
}
