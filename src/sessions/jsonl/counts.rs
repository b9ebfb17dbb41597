//! Counts: the exact number of messages of a whole transcript, one cached pass that
//! continues over appended lines.

use super::decode::{decode_line, Decoded, LineFormat};
use super::lines::forward;
use super::titles::Titles;
use super::{Engine, State};
use crate::error::Result;
use crate::source::Source;

/// The state of the counting pass.
#[derive(Debug, Clone, Default)]
pub(crate) struct Count {
    pub(crate) messages: u64,
    pub(crate) last_merge: Option<Box<str>>,
    boundary: bool,
    malformed: u64,
    pub(crate) titles: Titles,
}

impl Count {
    /// Takes one decoded line into account; returns whether it started a new message.
    pub(crate) fn take(&mut self, d: Decoded) -> bool {
        match d {
            Decoded::Malformed => self.malformed += 1,
            Decoded::Skip => {}
            Decoded::Boundary => self.boundary = true,
            Decoded::Meta(m) => self.titles.absorb(m),
            Decoded::Piece(p) => {
                self.titles.absorb_piece(&p);
                let merges = !self.boundary && p.continues(self.last_merge.as_deref());
                self.boundary = false;
                self.last_merge = p.merge;
                if !merges {
                    self.messages += 1;
                    return true;
                }
            }
        }
        false
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.titles.memory_bytes() + self.last_merge.as_ref().map_or(0, |m| m.len())
    }
}

impl<F: LineFormat> Engine<F> {
    /// The exact number of messages and the malformed lines of the whole file: the
    /// cached pass, continued if the file grew by appending.
    pub(super) fn count(&self, src: &Source, st: &mut State) -> Result<(u64, u64)> {
        if let Some(r) = st.count_result {
            return Ok(r);
        }
        let mut pass = st.count.take().unwrap_or_default();
        let fmt = &self.fmt;
        let mut state = std::mem::take(&mut pass.state);
        let mut extra = (0u64, 0u64);
        let done = forward(src, pass.done, src.len(), |line| {
            let Some(d) = decode_line(fmt, line.bytes) else {
                return true;
            };
            if line.terminated {
                state.take(d);
            } else {
                // A last line without LF may still be being written: count it now,
                // but keep it out of the state that later passes continue from.
                let mut probe = Count {
                    last_merge: state.last_merge.clone(),
                    boundary: state.boundary,
                    ..Count::default()
                };
                let was_bad = matches!(d, Decoded::Malformed);
                extra = (u64::from(probe.take(d)), u64::from(was_bad));
            }
            true
        })?;
        pass.state = state;
        pass.done = done;
        let r = (
            pass.state.messages + extra.0,
            pass.state.malformed + extra.1,
        );
        st.count = Some(pass);
        st.count_result = Some(r);
        Ok(r)
    }
}
