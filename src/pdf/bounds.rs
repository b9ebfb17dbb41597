//! The bounds of one call: how many bytes it may decompress, and until when it may run.
//! Streams are inflated here, counted, before lopdf or pdf-extract inflates them without
//! a limit; a stream that would go over the call's allowance stops the call. What a page
//! will decode is charged by [`super::charge`].

use std::io::Read;
use std::time::Instant;

use flate2::read::{DeflateDecoder, ZlibDecoder};
use lopdf::{Document, Object, ObjectId};

/// What a bound stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Over {
    /// The decompression allowance ran out (the bytes allowed).
    Inflate(u64),
    /// The deadline passed.
    Time,
    /// A page draws more XObjects than a call may follow (the visits counted), or nests
    /// them deeper than it may.
    Drawing(String),
    /// An XObject draws itself (through others): text extraction would never end.
    Cycle(ObjectId),
}

/// The allowance of one call.
#[derive(Debug)]
pub(super) struct Budget {
    /// Bytes the call may still decompress.
    pub left: u64,
    /// The whole allowance, for messages.
    pub total: u64,
    pub deadline: Instant,
}

impl Budget {
    pub fn check_time(&self) -> Result<(), Over> {
        if Instant::now() > self.deadline {
            Err(Over::Time)
        } else {
            Ok(())
        }
    }

    /// Inflates `raw` (zlib, or raw deflate when the header is bad, as lopdf falls back)
    /// into at most the allowance left; the bytes are charged.
    pub fn inflate(&mut self, raw: &[u8]) -> Result<Vec<u8>, Over> {
        let cap = self.left.saturating_add(1);
        let mut out = Vec::new();
        let zlib = ZlibDecoder::new(raw).take(cap).read_to_end(&mut out);
        if zlib.is_err() && out.is_empty() && raw.len() > 2 {
            let _ = DeflateDecoder::new(&raw[2..])
                .take(cap)
                .read_to_end(&mut out);
        }
        self.charge(out.len() as u64)?;
        Ok(out)
    }

    /// LZW-decodes `raw` (PDF's MSB order, early change by default) into at most the
    /// allowance left; the bytes are charged.
    fn lzw(&mut self, raw: &[u8], early_change: bool) -> Result<Vec<u8>, Over> {
        use weezl::{decode::Decoder, BitOrder};
        let mut decoder = if early_change {
            Decoder::with_tiff_size_switch(BitOrder::Msb, 8)
        } else {
            Decoder::new(BitOrder::Msb, 8)
        };
        let mut out = Vec::new();
        let mut buf = vec![0u8; 64 << 10];
        let mut input = raw;
        loop {
            let r = decoder.decode_bytes(input, &mut buf);
            input = &input[r.consumed_in..];
            if out.len() as u64 + r.consumed_out as u64 > self.left {
                self.left = 0;
                return Err(Over::Inflate(self.total));
            }
            out.extend_from_slice(&buf[..r.consumed_out]);
            if r.status.is_err()
                || matches!(
                    r.status,
                    Ok(weezl::LzwStatus::Done | weezl::LzwStatus::NoProgress)
                )
            {
                break;
            }
        }
        self.charge(out.len() as u64)?;
        Ok(out)
    }

    /// Charges `n` bytes decoded again (an XObject drawn once more).
    pub fn charge_again(&mut self, n: u64) -> Result<(), Over> {
        self.charge(n)
    }

    fn charge(&mut self, n: u64) -> Result<(), Over> {
        if n > self.left {
            self.left = 0;
            return Err(Over::Inflate(self.total));
        }
        self.left -= n;
        Ok(())
    }

    /// The content of a stream object as pdf-extract will see it (its filters applied in
    /// order, the raw bytes when a filter is one lopdf does not decode), decoded within
    /// the allowance and charged. Flate and LZW are bounded as they run; ASCII85 and
    /// ASCIIHex cannot grow their input.
    pub fn stream(&mut self, doc: &Document, id: ObjectId) -> Result<Vec<u8>, Over> {
        let Ok(Object::Stream(s)) = doc.get_object(id) else {
            return Ok(Vec::new());
        };
        self.decode(s)
    }

    pub fn decode(&mut self, s: &lopdf::Stream) -> Result<Vec<u8>, Over> {
        let Ok(filters) = s.filters() else {
            self.charge(s.content.len() as u64)?;
            return Ok(s.content.clone());
        };
        let early = s
            .dict
            .get(b"DecodeParms")
            .and_then(Object::as_dict)
            .and_then(|p| p.get(b"EarlyChange"))
            .and_then(Object::as_i64)
            .map_or(true, |v| v != 0);
        let mut data = s.content.clone();
        for f in filters {
            data = match f {
                b"FlateDecode" => self.inflate(&data)?,
                b"LZWDecode" => self.lzw(&data, early)?,
                b"ASCII85Decode" => ascii85(&data),
                b"ASCIIHexDecode" => ascii_hex(&data),
                // pdf-extract falls back to the raw bytes when lopdf cannot decode.
                _ => {
                    self.charge(s.content.len() as u64)?;
                    return Ok(s.content.clone());
                }
            };
        }
        Ok(data)
    }
}

/// ASCII85 (`z` for four zeros, `~>` the end); at most 4 bytes out per 5 in, or 4 per `z`.
fn ascii85(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let (mut acc, mut n) = (0u64, 0);
    for &c in input {
        match c {
            b'~' => break,
            b'z' if n == 0 => out.extend([0u8; 4]),
            b'!'..=b'u' => {
                acc = acc * 85 + u64::from(c - b'!');
                n += 1;
                if n == 5 {
                    out.extend((acc as u32).to_be_bytes());
                    (acc, n) = (0, 0);
                }
            }
            _ => {}
        }
    }
    if n > 1 {
        for _ in n..5 {
            acc = acc * 85 + 84;
        }
        out.extend(&(acc as u32).to_be_bytes()[..n - 1]);
    }
    out
}

/// ASCIIHex (`>` the end, whitespace ignored, an odd last digit padded with 0).
fn ascii_hex(input: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = input
        .iter()
        .take_while(|&&c| c != b'>')
        .filter_map(|&c| (c as char).to_digit(16).map(|d| d as u8))
        .collect();
    digits
        .chunks(2)
        .map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0))
        .collect()
}

/// Counts what the object streams of the raw file inflate to, before lopdf loads (and
/// inflates) them: every `/ObjStm` dictionary is a top-level object, so its keyword is
/// in the raw bytes, and its data follows the next `stream` keyword.
pub(super) fn object_streams(raw: &[u8], budget: &mut Budget) -> Result<(), Over> {
    for at in memchr::memmem::find_iter(raw, b"/ObjStm") {
        budget.check_time()?;
        let rest = &raw[at..];
        let Some(k) = memchr::memmem::find(rest, b"stream") else {
            continue;
        };
        let mut data = &rest[k + b"stream".len()..];
        if let Some(d) = data
            .strip_prefix(b"\r\n")
            .or_else(|| data.strip_prefix(b"\n"))
        {
            data = d;
        }
        // The stream ends where the deflate data ends; the decoder stops there itself.
        budget.inflate(data)?;
    }
    Ok(())
}
