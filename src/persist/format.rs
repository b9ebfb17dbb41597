//! The bytes of an index directory entry: writing one, and reading one back with every
//! check that decides whether it is trusted.

use super::PersistKey;
use crate::index::IndexParts;
use crate::text::Encoding;

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"RRINDEX\n";

/// The layout of the entries; entries of another format version are ignored (version 1
/// had no classification sample).
const FORMAT_VERSION: u32 = 2;

/// Bounds on the variable fields, so that a corrupt length cannot ask for much memory.
const MAX_IDENTITY: usize = 64 << 10;
const MAX_VERSION: usize = 4 << 10;
const MAX_ENCODING: usize = 64;
/// The classification sample: the first 8 KiB of the file at most.
const MAX_SAMPLE: usize = crate::classify::SAMPLE_SIZE;

/// Bytes of an entry besides its variable fields and checkpoints.
const FIXED: usize = 8 + 4 + 4 + 5 * 8 + 4 * 4 + 8 + 8;

/// Why an entry was not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reject {
    /// Of another identity, format version or block size: not ours to remove.
    Foreign,
    /// The same source at another version.
    Stale,
    /// Truncated, altered, or not an index a scan could produce.
    Corrupt,
}

/// An entry as read back, checksum verified, before it is matched against a source.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Entry<'a> {
    pub identity: &'a [u8],
    pub version: &'a [u8],
    pub parts: IndexParts,
    /// The first bytes of the file (at most 8 KiB), which the file is classified from
    /// without reading it; empty when the writer had none.
    pub sample: &'a [u8],
}

/// The largest entry a key and a source of `len` bytes can have.
pub(super) fn max_entry_size(key: &PersistKey, len: u64, block: u64) -> usize {
    let checkpoints = (len / block.max(1)).saturating_add(1).saturating_mul(8);
    FIXED
        .saturating_add(key.identity.len())
        .saturating_add(key.version.len())
        .saturating_add(MAX_ENCODING)
        .saturating_add(MAX_SAMPLE)
        .saturating_add(usize::try_from(checkpoints).unwrap_or(usize::MAX))
}

/// An entry's bytes. All integers are little-endian:
///
/// ```text
/// magic "RRINDEX\n" | format u32 | flags u32 (bit 0: last_is_lf)
/// block u64 | len u64 | scanned u64 | newlines u64 | text_start u64
/// encoding_len u32 | identity_len u32 | version_len u32 | sample_len u32
/// checkpoint count u64
/// encoding name | identity | version | sample | checkpoints (u64 each)
/// xxh3-64 of everything before it (u64)
/// ```
pub(super) fn encode(key: &PersistKey, p: &IndexParts, sample: &[u8]) -> Vec<u8> {
    let enc = p.encoding.name().as_bytes();
    let sample = &sample[..sample.len().min(MAX_SAMPLE)];
    let mut out = Vec::with_capacity(
        FIXED
            + enc.len()
            + key.identity.len()
            + key.version.len()
            + sample.len()
            + p.checkpoints.len() * 8,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&u32::from(p.last_is_lf).to_le_bytes());
    for v in [p.block, p.len, p.scanned, p.newlines, p.text_start] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for n in [
        enc.len(),
        key.identity.len(),
        key.version.len(),
        sample.len(),
    ] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    out.extend_from_slice(&(p.checkpoints.len() as u64).to_le_bytes());
    out.extend_from_slice(enc);
    out.extend_from_slice(&key.identity);
    out.extend_from_slice(&key.version);
    out.extend_from_slice(sample);
    for c in &p.checkpoints {
        out.extend_from_slice(&c.to_le_bytes());
    }
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// A cursor over an entry's bytes; every read fails past the end.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Reject> {
        if n > self.0.len() {
            return Err(Reject::Corrupt);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, Reject> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, Reject> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn len(&mut self, max: usize) -> Result<usize, Reject> {
        let n = self.u32()? as usize;
        if n > max {
            return Err(Reject::Corrupt);
        }
        Ok(n)
    }
}

/// The fields of an entry of at least `fixed` bytes that starts with `magic` and the
/// format version `version`, after both, its checksum verified (the checksum's 8 bytes
/// left out).
fn body<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    fixed: usize,
    version: u32,
) -> Result<Cursor<'a>, Reject> {
    if bytes.len() < fixed || &bytes[..8] != magic {
        return Err(Reject::Corrupt);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    let mut c = Cursor(&body[8..]);
    if c.u32()? != version {
        return Err(Reject::Foreign);
    }
    if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
        return Err(Reject::Corrupt);
    }
    Ok(c)
}

/// The entry in `bytes`, if it is whole: magic, format version, checksum and field
/// lengths checked; what it describes is not.
pub(super) fn parse(bytes: &[u8]) -> Result<Entry<'_>, Reject> {
    let mut c = body(bytes, MAGIC, FIXED, FORMAT_VERSION)?;
    let flags = c.u32()?;
    let [block, len, scanned, newlines, text_start] =
        [c.u64()?, c.u64()?, c.u64()?, c.u64()?, c.u64()?];
    let enc_len = c.len(MAX_ENCODING)?;
    let id_len = c.len(MAX_IDENTITY)?;
    let ver_len = c.len(MAX_VERSION)?;
    let sample_len = c.len(MAX_SAMPLE)?;
    let count = c.u64()?;
    let encoding = std::str::from_utf8(c.take(enc_len)?)
        .ok()
        .and_then(Encoding::from_name)
        .ok_or(Reject::Corrupt)?;
    let identity = c.take(id_len)?;
    let version = c.take(ver_len)?;
    let sample = c.take(sample_len)?;
    if flags > 1 || count.checked_mul(8) != Some(c.0.len() as u64) {
        return Err(Reject::Corrupt);
    }
    let checkpoints =
        c.0.chunks_exact(8)
            .map(|x| u64::from_le_bytes(x.try_into().expect("8 bytes")))
            .collect();
    Ok(Entry {
        identity,
        version,
        sample,
        parts: IndexParts {
            block,
            len,
            scanned,
            newlines,
            last_is_lf: flags == 1,
            encoding,
            text_start,
            checkpoints,
        },
    })
}

/// The index parts and the sample stored in `bytes`, if the entry is whole and describes
/// `key` read with `block`-byte blocks at length `len`.
pub(super) fn decode(
    bytes: &[u8],
    key: &PersistKey,
    len: u64,
    block: u64,
) -> Result<(IndexParts, Vec<u8>), Reject> {
    let e = parse(bytes)?;
    if e.identity != key.identity.as_slice() {
        return Err(Reject::Foreign);
    }
    if e.version != key.version.as_slice() {
        return Err(Reject::Stale);
    }
    if e.parts.block != block {
        return Err(Reject::Foreign);
    }
    if e.parts.len != len {
        return Err(Reject::Corrupt);
    }
    Ok((e.parts, e.sample.to_vec()))
}

#[cfg(any(feature = "pdf", test))]
/// The first bytes of an entry of what a document reader learned (beside line indexes).
const DOC_MAGIC: &[u8; 8] = b"RRDOCIX\n";

#[cfg(any(feature = "pdf", test))]
/// The layout of document entries.
const DOC_FORMAT_VERSION: u32 = 1;

#[cfg(any(feature = "pdf", test))]
/// The longest name of a document kind (`pdf`).
const MAX_KIND: usize = 16;

#[cfg(any(feature = "pdf", test))]
/// Bytes of a document entry besides its variable fields.
const DOC_FIXED: usize = 8 + 4 + 3 * 4 + 8 + 8;

#[cfg(feature = "pdf")]
/// The largest document entry a key and a payload of at most `max_payload` bytes make.
pub(super) fn max_document_size(key: &PersistKey, max_payload: usize) -> usize {
    DOC_FIXED
        .saturating_add(MAX_KIND)
        .saturating_add(key.identity.len())
        .saturating_add(key.version.len())
        .saturating_add(max_payload)
}

#[cfg(any(feature = "pdf", test))]
/// A document entry's bytes (what a reader of `kind` learned of the source of `key`):
///
/// ```text
/// magic "RRDOCIX\n" | format u32
/// kind_len u32 | identity_len u32 | version_len u32 | payload_len u64
/// kind | identity | version | payload
/// xxh3-64 of everything before it (u64)
/// ```
pub(super) fn encode_document(key: &PersistKey, kind: &str, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(
        DOC_FIXED + kind.len() + key.identity.len() + key.version.len() + payload.len(),
    );
    out.extend_from_slice(DOC_MAGIC);
    out.extend_from_slice(&DOC_FORMAT_VERSION.to_le_bytes());
    for n in [kind.len(), key.identity.len(), key.version.len()] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(&key.identity);
    out.extend_from_slice(&key.version);
    out.extend_from_slice(payload);
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[cfg(any(feature = "pdf", test))]
/// The payload of the document entry in `bytes`, if it is whole and describes the source
/// of `key` as a reader of `kind` saw it.
pub(super) fn decode_document<'a>(
    bytes: &'a [u8],
    key: &PersistKey,
    kind: &str,
) -> Result<&'a [u8], Reject> {
    let mut c = body(bytes, DOC_MAGIC, DOC_FIXED, DOC_FORMAT_VERSION)?;
    let kind_len = c.len(MAX_KIND)?;
    let id_len = c.len(MAX_IDENTITY)?;
    let ver_len = c.len(MAX_VERSION)?;
    let payload_len = c.u64()?;
    let stored_kind = c.take(kind_len)?;
    let identity = c.take(id_len)?;
    let version = c.take(ver_len)?;
    if payload_len != c.0.len() as u64 {
        return Err(Reject::Corrupt);
    }
    if identity != key.identity.as_slice() || stored_kind != kind.as_bytes() {
        return Err(Reject::Foreign);
    }
    if version != key.version.as_slice() {
        return Err(Reject::Stale);
    }
    Ok(c.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::LineIndex;

    fn key() -> PersistKey {
        PersistKey {
            identity: b"file:/x/y.txt".to_vec(),
            version: b"v1".to_vec(),
        }
    }

    fn parts() -> IndexParts {
        IndexParts {
            block: 4,
            len: 10,
            scanned: 9,
            newlines: 3,
            last_is_lf: true,
            encoding: Encoding::Utf8,
            text_start: 0,
            checkpoints: vec![0, 1, 2],
        }
    }

    #[test]
    fn an_entry_round_trips_and_every_single_byte_change_is_caught() {
        let bytes = encode(&key(), &parts(), b"first bytes");
        assert_eq!(
            decode(&bytes, &key(), 10, 4),
            Ok((parts(), b"first bytes".to_vec()))
        );
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(decode(&b, &key(), 10, 4).is_err(), "byte {i} flipped");
        }
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], &key(), 10, 4).is_err(), "cut at {n}");
        }
    }

    #[test]
    fn a_stale_foreign_or_mismatched_entry_says_why() {
        let bytes = encode(&key(), &parts(), b"");
        let other_version = PersistKey {
            version: b"v2".to_vec(),
            ..key()
        };
        let other_identity = PersistKey {
            identity: b"file:/x/z.txt".to_vec(),
            ..key()
        };
        assert_eq!(decode(&bytes, &other_version, 10, 4), Err(Reject::Stale));
        assert_eq!(decode(&bytes, &other_identity, 10, 4), Err(Reject::Foreign));
        assert_eq!(decode(&bytes, &key(), 10, 8), Err(Reject::Foreign));
        assert_eq!(decode(&bytes, &key(), 11, 4), Err(Reject::Corrupt));
    }

    #[test]
    fn only_states_a_scan_can_leave_are_accepted() {
        assert!(LineIndex::from_parts(parts()).is_some());
        let bad = [
            IndexParts {
                checkpoints: vec![0, 2, 1],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![1, 1, 2],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![0, 1],
                ..parts()
            },
            IndexParts {
                checkpoints: vec![0, 5, 6],
                ..parts()
            },
            IndexParts {
                newlines: 10,
                ..parts()
            },
            IndexParts {
                scanned: 11,
                ..parts()
            },
            IndexParts {
                block: 0,
                ..parts()
            },
            IndexParts {
                encoding: Encoding::Utf16Le,
                block: 3,
                checkpoints: vec![0, 1, 2, 3],
                ..parts()
            },
            IndexParts {
                newlines: 0,
                checkpoints: vec![0, 0, 0],
                ..parts()
            },
        ];
        for p in bad {
            assert!(LineIndex::from_parts(p.clone()).is_none(), "{p:?}");
        }
    }

    #[test]
    fn a_document_entry_round_trips_and_every_single_byte_change_is_caught() {
        let bytes = encode_document(&key(), "pdf", b"what a first read learned");
        assert_eq!(
            decode_document(&bytes, &key(), "pdf"),
            Ok(b"what a first read learned".as_slice())
        );
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(
                decode_document(&b, &key(), "pdf").is_err(),
                "byte {i} flipped"
            );
        }
        for n in 0..bytes.len() {
            assert!(
                decode_document(&bytes[..n], &key(), "pdf").is_err(),
                "cut at {n}"
            );
        }
        let stale = PersistKey {
            version: b"v2".to_vec(),
            ..key()
        };
        assert_eq!(decode_document(&bytes, &stale, "pdf"), Err(Reject::Stale));
        assert_eq!(
            decode_document(&bytes, &key(), "ipynb"),
            Err(Reject::Foreign)
        );
        // A line index entry is not a document entry, and the other way round.
        assert!(decode_document(&encode(&key(), &parts(), b""), &key(), "pdf").is_err());
        assert!(decode(&bytes, &key(), 10, 4).is_err());
    }
}
