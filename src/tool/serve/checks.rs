//! What a call is checked for before it reads, as a dialect says: the suggestion after a
//! refused relative path, a file-size cap on every read, and a `[start, end]` range checked against the
//! file's line count before reading.

use crate::error::{Error, Result};
use crate::select::{LineSelection, Selection};
use crate::tool::decode::args::param;
use crate::tool::decode::{Plan, Way};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::Dialect;
use crate::tool::serve::ctx::{binary_error, Ctx};
use crate::workspace::Workspace;

/// The text after a refused relative path: the absolute path it may have meant, when
/// it names something in the workspace.
pub(crate) fn suggestion(d: &Dialect, workspace: Option<&Workspace>, path: &str) -> String {
    match (&d.paths.suggest_absolute, workspace) {
        (Some(t), Some(ws)) => match ws.resolve(path) {
            Ok(abs) => fill(t, &[("path", &abs.display().to_string())]),
            Err(_) => String::new(),
        },
        _ => String::new(),
    }
}

/// The checks made on the file before it is read: the dialect's cap on the file's size
/// ([`crate::tool::Caps::file_size_any_read`]), and its checks of a `[start, end]` range
/// against the file's lines. `path`: as the caller gave it, for the messages.
pub(crate) fn before_read(ctx: &Ctx, path: &str, plan: &Plan) -> Result<()> {
    let d = ctx.dialect;
    let range = match (&d.lines.range_checks, plan.way) {
        (Some(checks), Way::Range) => Some(checks),
        _ => None,
    };
    // A `[start, end]` value that is not two integers, refused once the file passed.
    let shape = plan
        .range_given
        .as_ref()
        .and_then(|g| Some((&g.name, g.refusal.as_ref()?)));
    if d.caps.file_size_any_read.is_none() && range.is_none() && plan.range_given.is_none() {
        return Ok(());
    }
    // The file the call opened already, if a step before opened it; the read after these
    // checks reads it from the same open.
    let opened = ctx.document(&ctx.reader());
    let mut doc = match opened {
        Ok(doc) => doc,
        // A directory has no size or lines: the read answers for it (its listing, or
        // the dialect's error), unless the dialect refuses a range for a directory.
        Err(Error::IsDirectory { .. }) => {
            let refusal = d.directory.as_ref().and_then(|l| l.range_refusal.as_ref());
            return match (refusal, &plan.range_given) {
                (Some(t), Some(g)) => {
                    let message = fill(t, &[("name", &g.name), ("value", &g.shown)]);
                    Err(param(&g.name, message))
                }
                _ => Ok(()),
            };
        }
        Err(e) => return Err(e),
    };
    if let Some(cap) = &d.caps.file_size_any_read {
        let size = doc.source().len();
        if size > cap.bytes {
            let (kib, mib) = (size as f64 / 1024.0, size as f64 / (1024.0 * 1024.0));
            let (kib, size_mib) = (format!("{kib:.2}"), format!("{mib:.1}"));
            let mib = format!("{mib:.2}");
            let max_mib = (cap.bytes >> 20).to_string();
            let message = fill(
                &cap.message,
                &[
                    ("path", &path),
                    ("bytes", &size),
                    ("kib", &kib.as_str()),
                    ("mib", &mib.as_str()),
                    ("size_mib", &size_mib.as_str()),
                    ("max", &cap.bytes),
                    ("max_mib", &max_mib.as_str()),
                ],
            );
            let over = ("bytes", size, cap.bytes);
            return Err(crate::tool::serve::caps::too_large(d, path, message, over));
        }
    }
    if let Some((name, refusal)) = shape {
        // The file is read as text first: a binary file is refused as binary.
        doc.total_lines().map_err(|e| binary_error(d, e, path))?;
        return Err(param(name, refusal.clone()));
    }
    let Some(checks) = range else {
        ctx.keep(doc);
        return Ok(());
    };
    let Selection::Lines(LineSelection::Range {
        start: Some(start),
        end,
    }) = plan.selection
    else {
        ctx.keep(doc);
        return Ok(());
    };
    let total = doc.total_lines().map_err(|e| binary_error(d, e, path))?;
    let total_i = i64::try_from(total).unwrap_or(i64::MAX);
    // The value and its elements as the call gave them (Python quotes `[True, 3]`, not
    // the `[1, 3]` it compares).
    let given = plan.range_given.as_ref().filter(|g| g.items.len() == 2);
    let value = given.map_or_else(
        || format!("[{start}, {}]", end.unwrap_or(-1)),
        |g| g.shown.clone(),
    );
    let start_shown = given.map_or_else(|| start.to_string(), |g| g.items[0].clone());
    let name = plan.start_name.as_str();
    // An end the check keeps as given is quoted as given; one it replaced, as a number.
    let end_shown = |e: i64| match given {
        Some(g) if end == Some(e) => g.items[1].clone(),
        _ => e.to_string(),
    };
    let vals = |end: i64| {
        [
            ("name", name.to_string()),
            ("value", value.clone()),
            ("start", start_shown.clone()),
            ("end", end_shown(end)),
            ("total", total.to_string()),
        ]
    };
    // The tool's words over the library's error, when there is one for the fault.
    let refuse = |template: &str, end: i64, cause: Option<Error>| {
        let v = vals(end);
        let values: Vec<(&str, &dyn crate::tool::dialect::template::Value)> =
            v.iter().map(|(k, x)| (*k, x as _)).collect();
        let message = fill(template, &values);
        Err(match cause {
            Some(cause) => Error::Refused {
                message,
                parameter: name.to_string(),
                cause: Box::new(cause),
            },
            None => param(name, message),
        })
    };
    if start < 1 || start > total_i {
        let cause = (start > total_i).then(|| Error::LineBeyondEnd {
            start,
            total_lines: total_i,
            parameter: name.to_string(),
        });
        return refuse(&checks.start, end.unwrap_or(-1), cause);
    }
    let end = end.map_or(total_i, |e| e.min(total_i));
    if end < start {
        let cause = Error::LineStartAfterEnd {
            start,
            end,
            parameter: name.to_string(),
        };
        return refuse(&checks.order, end, Some(cause));
    }
    ctx.keep(doc);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::decode::args::Args;
    use crate::tool::decode::{decode, plan};
    use serde_json::json;
    use serde_json::Value;

    fn args(v: Value) -> Args {
        match v {
            Value::Object(m) => Args::new(m),
            _ => unreachable!(),
        }
    }

    fn lines(d: &Dialect, call: Value) -> Result<Selection> {
        Ok(plan(d, &decode(d, args(call))?)?.selection)
    }

    #[test]
    fn a_command_outside_the_served_ones_is_refused_in_the_dialects_words() {
        let d = Dialect::preset("openhands").unwrap();
        let ok = json!({"command": "view", "path": "/a"});
        assert!(decode(&d, args(ok)).is_ok());
        let e = decode(&d, args(json!({"command": "create", "path": "/a"}))).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("The `create` command is not available"),
            "{e}"
        );
        let mut plain = d.clone();
        plain.errors.command = None;
        let e = decode(&plain, args(json!({"command": "undo_edit", "path": "/a"}))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Unsupported command \"undo_edit\": this tool serves view"
        );
    }

    #[test]
    fn checked_ranges_take_an_empty_list_as_absent_and_refuse_other_shapes() {
        let d = Dialect::preset("openhands").unwrap();
        let call = |r: Value| json!({"command": "view", "path": "/a", "view_range": r});
        assert_eq!(lines(&d, call(json!([]))).unwrap(), Selection::default());
        assert_eq!(
            lines(&d, call(json!([2, -1]))).unwrap(),
            LineSelection::range(Some(2), None).into()
        );
        // Another shape reads nothing; its refusal waits for the file's own checks
        // (OpenHands validates the file first).
        for bad in [
            json!([1]),
            json!([1, 2, 3]),
            json!(["a", 2]),
            json!(5),
            json!([1.0, 2]),
        ] {
            let p = plan(&d, &decode(&d, args(call(bad.clone()))).unwrap()).unwrap();
            let refusal = p.range_given.and_then(|g| g.refusal).unwrap_or_default();
            assert!(
                refusal.ends_with("It should be a list of two integers."),
                "{bad}: {refusal}"
            );
        }
        // Order and start are checked against the file, not here.
        assert!(lines(&d, call(json!([3, 1]))).is_ok());
        assert!(lines(&d, call(json!([0, 1]))).is_ok());
    }

    #[test]
    fn a_reversed_range_is_swapped_where_the_dialect_says_so() {
        let d = Dialect::preset("forge").unwrap();
        let call = |s: Value, e: Value| json!({"file_path": "/a", "start_line": s, "end_line": e});
        let range = |s, e| Selection::from(LineSelection::range(Some(s), Some(e)));
        assert_eq!(
            lines(&d, call(json!(20), json!(10))).unwrap(),
            range(10, 20)
        );
        assert_eq!(lines(&d, call(json!(5), json!(0))).unwrap(), range(1, 5));
        assert_eq!(
            lines(&d, call(json!(0), json!(10))).unwrap(),
            LineSelection::range(None, Some(10)).into(),
            "a start of 0 is line 1"
        );
        assert_eq!(lines(&d, call(Value::Null, json!(0))).unwrap(), range(1, 1));
        assert!(lines(&d, call(json!(-2), json!(4))).is_err());
        let mut strict = d.clone();
        strict.lines.swap_reversed = false;
        let e = lines(&strict, call(json!(20), json!(10))).unwrap_err();
        assert!(e.to_string().contains("is greater than"), "{e}");
    }

    #[test]
    fn refused_endings_ignore_case_and_take_a_name_that_is_only_the_ending() {
        let mut d = Dialect::preset("forge").unwrap();
        let refuse = |d: &Dialect, p: &str| crate::tool::decode::paths::refuse_by_name(d, p);
        assert!(refuse(&d, "/x/a.PNG").is_ok(), "off by default");
        let mut gate = crate::tool::NameRefusal {
            names: vec![".png".into(), ".tar.gz".into()],
            message: "no: {path}".into(),
            match_suffix: true,
        };
        d.paths.refused_extensions = vec![gate.clone()];
        assert_eq!(
            refuse(&d, "/x/a.PNG").unwrap_err().to_string(),
            "no: /x/a.PNG"
        );
        assert!(
            refuse(&d, "/x/.png").is_err(),
            "a name that is only the ending"
        );
        assert!(
            refuse(&d, "/x/a.TAR.GZ").is_err(),
            "an ending with two dots"
        );
        assert!(refuse(&d, "/x/a.png.txt").is_ok());
        assert!(refuse(&d, "/x/png").is_ok());
        gate.match_suffix = false;
        d.paths.refused_extensions = vec![gate];
        assert!(
            refuse(&d, "/x/.png").is_ok(),
            "extensions: a dot file has none"
        );
        assert!(refuse(&d, "/x/a.PNG").is_err());
    }
}
