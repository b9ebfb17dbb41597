//! Timestamps of messages and sessions: UTC milliseconds, parsed from and written as
//! RFC 3339, without a date-time dependency.

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;

/// A point in time: milliseconds since the Unix epoch, UTC.
///
/// Parsed from RFC 3339 / ISO 8601 text (`2025-06-01T12:00:00.123Z`, `+02:00` offsets,
/// a space instead of `T`, or a bare date `2025-06-01` for midnight UTC) and written as
/// `2025-06-01T12:00:00.123Z`. Agent transcripts store times as such text (Claude Code,
/// Codex CLI) or as epoch milliseconds (OpenCode); both end up here.
///
/// # Example
///
/// ```
/// use rangeread::sessions::Timestamp;
///
/// let t: Timestamp = "2025-06-01T14:00:00+02:00".parse()?;
/// assert_eq!(t.to_string(), "2025-06-01T12:00:00.000Z");
/// assert_eq!("2025-06-01".parse::<Timestamp>()?.millis(), 1_748_736_000_000);
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The timestamp `ms` milliseconds after the Unix epoch.
    pub fn from_millis(ms: i64) -> Timestamp {
        Timestamp(ms)
    }

    /// Milliseconds since the Unix epoch.
    pub fn millis(self) -> i64 {
        self.0
    }

    /// A file modification time (or any `SystemTime`), to the millisecond.
    pub fn from_system_time(t: SystemTime) -> Timestamp {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Timestamp(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
            Err(e) => Timestamp(-i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX)),
        }
    }

    /// A number from a transcript: epoch milliseconds when it is that large (after
    /// September 1973 in milliseconds), epoch seconds otherwise.
    pub fn from_epoch_number(n: f64) -> Option<Timestamp> {
        if !n.is_finite() {
            return None;
        }
        let ms = if n.abs() >= 1e11 { n } else { n * 1000.0 };
        Some(Timestamp(ms.round() as i64))
    }

    /// Parses RFC 3339 / ISO 8601 text; `None` when it is not a date.
    pub fn parse_text(s: &str) -> Option<Timestamp> {
        parse(s.trim())
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    fn from_str(s: &str) -> Result<Timestamp, Error> {
        Timestamp::parse_text(s).ok_or_else(|| Error::InvalidSessionQuery {
            message: format!(
                "Invalid date {s:?}: expected RFC 3339 like 2025-06-01T12:00:00Z or a date like 2025-06-01"
            ),
        })
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.rem_euclid(1000);
        let secs = self.0.div_euclid(1000);
        let days = secs.div_euclid(86_400);
        let sod = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
            sod / 3600,
            sod / 60 % 60,
            sod % 60
        )
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

fn parse(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(part).ok()?.parse().ok()
    };
    let year = num(0, 4)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return None;
    }
    let month = num(5, 2)?;
    let day = num(8, 2)?;
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * 86_400_000;
    if b.len() == 10 {
        return Some(Timestamp(ms));
    }
    if !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return None;
    }
    let hour = num(11, 2)?;
    if b.get(13) != Some(&b':') {
        return None;
    }
    let minute = num(14, 2)?;
    let mut at = 16;
    let mut second = 0;
    if b.get(at) == Some(&b':') {
        second = num(17, 2)?;
        at = 19;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    ms += (hour * 3600 + minute * 60 + second) * 1000;
    if matches!(b.get(at), Some(b'.' | b',')) {
        at += 1;
        let digits = b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        let frac = &s[at..at + digits.min(3)];
        let scale = [100, 10, 1][frac.len() - 1];
        ms += frac.parse::<i64>().ok()? * scale;
        at += digits;
    }
    match b.get(at) {
        None => {}
        Some(b'Z' | b'z') if at + 1 == b.len() => {}
        Some(&sign @ (b'+' | b'-')) => {
            let oh = num(at + 1, 2)?;
            let om = match b.get(at + 3) {
                None => 0,
                Some(b':') => num(at + 4, 2)?,
                Some(_) => num(at + 3, 2)?,
            };
            let rest = match b.get(at + 3) {
                None => at + 3,
                Some(b':') => at + 6,
                Some(_) => at + 5,
            };
            if rest != b.len() {
                return None;
            }
            let off = (oh * 60 + om) * 60_000;
            ms += if sign == b'+' { -off } else { off };
        }
        _ => return None,
    }
    Some(Timestamp(ms))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_offsets() {
        let t = Timestamp::parse_text("2025-10-29T07:35:14.293Z").unwrap();
        assert_eq!(t.to_string(), "2025-10-29T07:35:14.293Z");
        let u = Timestamp::parse_text("2025-10-29T09:35:14.293+02:00").unwrap();
        assert_eq!(t, u);
        assert_eq!(Timestamp::parse_text("1970-01-01").unwrap().millis(), 0);
        assert_eq!(
            Timestamp::from_millis(-1).to_string(),
            "1969-12-31T23:59:59.999Z"
        );
        assert_eq!(
            Timestamp::parse_text("2024-02-29 23:59:59.123456")
                .unwrap()
                .to_string(),
            "2024-02-29T23:59:59.123Z"
        );
        assert!(Timestamp::parse_text("yesterday").is_none());
        assert!(Timestamp::parse_text("2025-13-01").is_none());
        assert!(Timestamp::parse_text("2025-01-01T10:00Zjunk").is_none());
        assert_eq!(
            Timestamp::from_epoch_number(1_706_459_830_000.0)
                .unwrap()
                .to_string(),
            "2024-01-28T16:37:10.000Z"
        );
        assert_eq!(Timestamp::from_epoch_number(1.5).unwrap().millis(), 1500);
    }
}
