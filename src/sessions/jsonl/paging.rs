//! Paging: records assembled into messages and the request's window taken, reading
//! from the start or backwards from the end and stopping as soon as the window is full.

use super::super::{Message, MessageRequest, Order};
use super::decode::{decode_line, Decoded, LineFormat, Piece, ONCE};
use super::lines::{forward, Backward};
use crate::error::Result;
use crate::source::Source;

fn join(into: &mut String, before: &str, after: &str) {
    into.clear();
    into.push_str(before);
    if !before.is_empty() && !after.is_empty() {
        into.push('\n');
    }
    into.push_str(after);
}

fn to_message(p: Piece) -> Message {
    Message {
        role: p.role,
        content: p.content,
        timestamp: p.timestamp,
    }
}

/// Merges consecutive pieces of one reply into messages, in the order they are read:
/// oldest first, or newest first for backward walks.
#[derive(Default)]
pub(crate) struct Assembler {
    cur: Option<Piece>,
    pub(crate) boundary: bool,
    newest_first: bool,
}

impl Assembler {
    pub(crate) fn newest_first() -> Assembler {
        Assembler {
            newest_first: true,
            ..Assembler::default()
        }
    }

    pub(crate) fn push(&mut self, p: Piece) -> Option<Message> {
        if let Some(c) = &mut self.cur {
            // `later` continues `earlier` in file order.
            let merges = !self.boundary
                && if self.newest_first {
                    c.continues(p.merge.as_deref())
                } else {
                    p.continues(c.merge.as_deref())
                };
            if merges && c.merge.as_deref().is_some_and(|m| m.starts_with(ONCE)) {
                // The same message written twice: its text once, its earliest time.
                if self.newest_first && p.timestamp.is_some() {
                    c.timestamp = p.timestamp;
                }
                return None;
            }
            if merges {
                let mut s = String::with_capacity(c.content.len() + p.content.len() + 1);
                // The message keeps its text in file order, its earliest timestamp, and
                // whether its first piece opened it.
                if self.newest_first {
                    join(&mut s, &p.content, &c.content);
                    if p.timestamp.is_some() {
                        c.timestamp = p.timestamp;
                    }
                    c.opens = p.opens;
                } else {
                    join(&mut s, &c.content, &p.content);
                    if c.timestamp.is_none() {
                        c.timestamp = p.timestamp;
                    }
                }
                c.content = s;
                return None;
            }
        }
        self.boundary = false;
        self.cur.replace(p).map(to_message)
    }

    pub(crate) fn finish(&mut self) -> Option<Message> {
        self.cur.take().map(to_message)
    }
}

/// Collects the window of a request from messages arriving in the request's order.
struct Window<'r> {
    req: &'r MessageRequest,
    skipped: usize,
    out: Vec<Message>,
    stop: bool,
}

impl Window<'_> {
    fn offer(&mut self, m: Message) {
        if self.stop {
            return;
        }
        // Transcripts are appended in time order: past the bound, nothing more matches.
        if let Some(t) = m.time() {
            let past = match self.req.order {
                Order::Oldest => self.req.until.is_some_and(|u| t > u),
                Order::Newest => self.req.since.is_some_and(|s| t < s),
            };
            if past {
                self.stop = true;
                return;
            }
        }
        if !self.req.matches(&m) {
            return;
        }
        if self.skipped < self.req.offset {
            self.skipped += 1;
            return;
        }
        self.out.push(m);
        if self.out.len() >= self.req.limit {
            self.stop = true;
        }
    }
}

/// Reads the window of `req` from a transcript: from the start for [`Order::Oldest`],
/// backwards from the end for [`Order::Newest`]; either way it stops as soon as the
/// window is complete. Returns the messages and the malformed lines met.
pub(crate) fn read_window(
    src: &Source,
    fmt: &dyn LineFormat,
    req: &MessageRequest,
) -> Result<(Vec<Message>, u64)> {
    let mut win = Window {
        req,
        skipped: 0,
        out: Vec::new(),
        stop: req.limit == 0,
    };
    if win.stop {
        return Ok((win.out, 0));
    }
    let mut malformed = 0u64;
    let mut asm = match req.order {
        Order::Oldest => Assembler::default(),
        Order::Newest => Assembler::newest_first(),
    };
    // The one decode loop, whichever way the lines come.
    let mut take = |line: &[u8]| -> bool {
        match decode_line(fmt, line) {
            None | Some(Decoded::Skip | Decoded::Meta(_)) => {}
            Some(Decoded::Malformed) => malformed += 1,
            Some(Decoded::Boundary) => asm.boundary = true,
            Some(Decoded::Piece(p)) => {
                if let Some(m) = asm.push(p) {
                    win.offer(m);
                }
            }
        }
        !win.stop
    };
    match req.order {
        Order::Oldest => {
            forward(src, 0, src.len(), |line| take(line.bytes))?;
        }
        Order::Newest => {
            let mut lines = Backward::new(src, src.len());
            while let Some(line) = lines.next_line()? {
                if !take(line) {
                    break;
                }
            }
        }
    }
    if let Some(m) = asm.finish() {
        win.offer(m);
    }
    Ok((win.out, malformed))
}
