//! A page-range parameter (`"3"`, `"1-5"`, `"10-"`), checked by a dialect's
//! [`PageRules`] when the call is decoded, whatever file it names (as Claude Code's Read
//! checks `pages`).

use crate::error::Result;
use crate::tool::decode::args::param;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::PageRules;

/// Pages `first..=last` (1-based); `last` is `None` for an open range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pages {
    pub first: u64,
    pub last: Option<u64>,
}

/// Parses one page or one range: digits (at most nine), optionally `-` and more digits,
/// spaces allowed around the dash; surrounding spaces ignored.
fn parse(text: &str) -> Option<Pages> {
    let digits = |s: &str| -> Option<u64> {
        (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let text = text.trim();
    let pages = match text.split_once('-') {
        None => {
            let n = digits(text)?;
            Pages {
                first: n,
                last: Some(n),
            }
        }
        Some((a, b)) => {
            // Spaces are allowed around the dash.
            let b = b.trim_start();
            Pages {
                first: digits(a.trim_end())?,
                last: if b.is_empty() { None } else { Some(digits(b)?) },
            }
        }
    };
    // Pages are 1-indexed; a range runs forward.
    let forward = pages.last.is_none_or(|l| l >= pages.first);
    (pages.first >= 1 && forward).then_some(pages)
}

/// Checks a page range against the rules: the range, or the rules' message naming it.
pub(crate) fn check(rules: &PageRules, name: &str, text: &str) -> Result<Pages> {
    let vals = |t: &str| fill(t, &[("value", &text), ("max", &rules.max)]);
    let pages = parse(text).ok_or_else(|| param(name, vals(&rules.invalid)))?;
    let count = match pages.last {
        Some(last) => Some(last - pages.first + 1),
        None => rules.open_end_counts,
    };
    if count.is_some_and(|n| n > rules.max) {
        return Err(param(name, vals(&rules.too_many)));
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> PageRules {
        PageRules {
            max: 20,
            open_end_counts: Some(21),
            invalid: "bad {value}".into(),
            too_many: "{value} over {max}".into(),
        }
    }

    #[test]
    fn one_page_or_one_range() {
        let p = |first, last| Pages { first, last };
        assert_eq!(parse("3"), Some(p(3, Some(3))));
        assert_eq!(parse(" 1-5 "), Some(p(1, Some(5))));
        assert_eq!(parse("2 - 9"), Some(p(2, Some(9))));
        assert_eq!(parse("10-"), Some(p(10, None)));
        for bad in [
            "",
            "1,3",
            "a",
            "-3",
            "0",
            "5-2",
            "1-2-3",
            "1234567890",
            "1.5",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn counts_against_the_maximum() {
        let r = rules();
        assert!(check(&r, "pages", "1-20").is_ok());
        let e = check(&r, "pages", "1-25").unwrap_err().to_string();
        assert_eq!(e, "1-25 over 20");
        let e = check(&r, "pages", "10-").unwrap_err().to_string();
        assert_eq!(e, "10- over 20");
        let open = PageRules {
            open_end_counts: None,
            ..rules()
        };
        assert!(check(&open, "pages", "10-").is_ok());
        let e = check(&r, "pages", "1,3").unwrap_err().to_string();
        assert_eq!(e, "bad 1,3");
    }
}
