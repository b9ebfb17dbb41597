//! Retry: a transcript that changed while being read is read again, so that a page
//! never mixes two states of the file.

/// How many times a transcript that changed while being read is read again.
pub(crate) const RETRIES: u32 = 3;

/// Runs `f` again while it reports [`crate::Error::Changed`], at most [`RETRIES`] times.
pub(crate) fn retry<R>(mut f: impl FnMut() -> crate::Result<R>) -> crate::Result<R> {
    let mut attempt = 0;
    loop {
        match f() {
            Err(crate::Error::Changed { .. }) if attempt < RETRIES => attempt += 1,
            r => return r,
        }
    }
}
