//! The text encodings a file can be read in, and their code-unit layout.

use std::fmt;

use serde::{Serialize, Serializer};

use super::units::{Multi, Units};

/// A text encoding the reader can decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// UTF-8, and ASCII.
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
    /// A legacy 8-bit or CJK encoding (found by `chardetng`, or named by the host).
    Legacy(LegacyEncoding),
}

/// The legacy encodings chardetng guesses among; a table keeps the names `'static` and
/// lower-case.
const NAMES: &[&str] = &[
    "big5",
    "euc-jp",
    "euc-kr",
    "gbk",
    "gb18030",
    "ibm866",
    "iso-2022-jp",
    "iso-8859-2",
    "iso-8859-3",
    "iso-8859-4",
    "iso-8859-5",
    "iso-8859-6",
    "iso-8859-7",
    "iso-8859-8",
    "iso-8859-8-i",
    "iso-8859-10",
    "iso-8859-13",
    "iso-8859-14",
    "iso-8859-15",
    "iso-8859-16",
    "koi8-r",
    "koi8-u",
    "macintosh",
    "shift_jis",
    "windows-874",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "x-mac-cyrillic",
];

/// A legacy encoding, named by its lower-case WHATWG label (`windows-1252`,
/// `shift_jis`, `gbk`, `euc-kr`, `big5` ...).
///
/// ISO-8859-1 (Latin-1) is reported as `windows-1252`, its superset for every printable
/// character, as the WHATWG Encoding Standard (and so every browser) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LegacyEncoding {
    name: &'static str,
}

impl LegacyEncoding {
    /// The lower-case WHATWG label.
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub(crate) fn from_encoding_rs(enc: &'static encoding_rs::Encoding) -> Option<Self> {
        let name = NAMES.iter().find(|n| n.eq_ignore_ascii_case(enc.name()))?;
        Some(LegacyEncoding { name })
    }

    pub(crate) fn encoding_rs(&self) -> &'static encoding_rs::Encoding {
        encoding_rs::Encoding::for_label(self.name.as_bytes()).unwrap_or(encoding_rs::WINDOWS_1252)
    }
}

impl Encoding {
    /// The encoding a label names, as the WHATWG Encoding Standard reads labels (case
    /// and surrounding spaces ignored): `utf-8`, `utf8`, `utf-16le`, `utf-16be`,
    /// `utf-32le`, `utf-32be`, `latin1` and `iso-8859-1` (read as `windows-1252`),
    /// `cp1251`, `sjis`, `shift_jis`, `gbk`, `big5` ... `None` for a label no decoder
    /// here reads (`utf-7`, `replacement`, a misspelling).
    ///
    /// ```
    /// use rangeread::Encoding;
    /// assert_eq!(Encoding::for_label("UTF-16LE"), Some(Encoding::Utf16Le));
    /// assert_eq!(Encoding::for_label("latin1").map(|e| e.name()), Some("windows-1252"));
    /// assert_eq!(Encoding::for_label("klingon"), None);
    /// ```
    pub fn for_label(label: &str) -> Option<Encoding> {
        let trimmed = label.trim().to_ascii_lowercase();
        match trimmed.as_str() {
            "utf-32le" | "utf-32" | "utf32" => return Some(Encoding::Utf32Le),
            "utf-32be" => return Some(Encoding::Utf32Be),
            _ => {}
        }
        let enc = encoding_rs::Encoding::for_label_no_replacement(trimmed.as_bytes())?;
        Some(if enc == encoding_rs::UTF_8 {
            Encoding::Utf8
        } else if enc == encoding_rs::UTF_16LE {
            Encoding::Utf16Le
        } else if enc == encoding_rs::UTF_16BE {
            Encoding::Utf16Be
        } else {
            Encoding::Legacy(LegacyEncoding::from_encoding_rs(enc)?)
        })
    }

    /// The encoding named `name` as [`Encoding::name`] spells it (what a stored index
    /// records), whether or not this build decodes legacy encodings.
    pub(crate) fn from_name(name: &str) -> Option<Encoding> {
        Some(match name {
            "utf-8" => Encoding::Utf8,
            "utf-16le" => Encoding::Utf16Le,
            "utf-16be" => Encoding::Utf16Be,
            "utf-32le" => Encoding::Utf32Le,
            "utf-32be" => Encoding::Utf32Be,
            _ => Encoding::Legacy(LegacyEncoding {
                name: NAMES.iter().find(|n| **n == name)?,
            }),
        })
    }

    /// The lower-case name reported in results: `utf-8`, `utf-16le`, `utf-16be`,
    /// `utf-32le`, `utf-32be`, or a legacy encoding's WHATWG label.
    pub fn name(&self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Utf32Le => "utf-32le",
            Encoding::Utf32Be => "utf-32be",
            Encoding::Legacy(l) => l.name(),
        }
    }

    /// The length of this encoding's byte order mark.
    pub fn bom_len(&self) -> usize {
        match self {
            Encoding::Utf8 => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
            Encoding::Utf32Le | Encoding::Utf32Be => 4,
            Encoding::Legacy(_) => 0,
        }
    }

    pub(crate) fn units(&self) -> Units {
        match self {
            Encoding::Utf8 => Units::Utf8,
            Encoding::Utf16Le => Units::Utf16Le,
            Encoding::Utf16Be => Units::Utf16Be,
            Encoding::Utf32Le => Units::Utf32Le,
            Encoding::Utf32Be => Units::Utf32Be,
            Encoding::Legacy(l) => match l.name() {
                "shift_jis" => Units::MultiByte(Multi::ShiftJis),
                "euc-jp" => Units::MultiByte(Multi::EucJp),
                "gbk" | "gb18030" => Units::MultiByte(Multi::Gb18030),
                "big5" | "euc-kr" => Units::MultiByte(Multi::DoubleByte),
                _ => Units::SingleByte,
            },
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Encoding {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
