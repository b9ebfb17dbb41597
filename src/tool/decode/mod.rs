//! The one decoder: a tool call's JSON arguments, read through a [`Dialect`]'s
//! parameters, become a [`Request`], and a request becomes the [`Selection`] to read.

pub(crate) mod argchecks;
pub(crate) mod args;
pub(crate) mod indentation;
pub(crate) mod pages;
pub(crate) mod paths;
pub(crate) mod types;
pub(crate) mod validation;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::select::{ByteSelection, LineSelection, Selection};
use crate::tool::decode::args::{invalid, missing, param, Args, Named};
use crate::tool::decode::indentation::IndentRequest;
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Param, Role, Special, Unit};

pub(crate) use crate::tool::decode::args::Given;

/// What a call asks for, by meaning, whatever the dialect named it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Request {
    pub path: String,
    pub session: Option<String>,
    pub start_line: Option<Given<i64>>,
    pub end_line: Option<Given<i64>>,
    pub offset: Option<Given<i64>>,
    pub skip: Option<Given<i64>>,
    pub limit: Option<Given<i64>>,
    pub head: Option<Given<i64>>,
    pub tail: Option<Given<i64>>,
    pub start_byte: Option<Given<i64>>,
    pub end_byte: Option<Given<i64>>,
    pub entire: Option<Given<bool>>,
    pub range: Option<Given<(i64, i64)>>,
    /// A `[start, end]` value as given, under [`crate::tool::LineRules::range_checks`].
    pub range_given: Option<RangeGiven>,
    pub numbers: Option<Given<bool>>,
    pub indent: IndentRequest,
    /// A page range as given ([`Role::Pages`]), checked.
    pub pages: Option<Given<String>>,
    /// The caller opted in to lifted caps ([`Role::LiftCaps`]).
    pub lift: bool,
    /// A notebook's cells as given ([`Role::Cells`]).
    pub cells: Option<Given<String>>,
    /// An image's region as given ([`Role::Crop`]).
    pub crop: Option<Given<String>>,
}

/// A `[start, end]` value as the call gave it, for the checks made once the file is
/// known (OpenHands validates the file before the shape of `view_range`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RangeGiven {
    /// The parameter as spelled.
    pub name: String,
    /// The value as the dialect's refusals quote it.
    pub shown: String,
    /// Its refusal when it is not two integers, made after the file's own checks.
    pub refusal: Option<String>,
    /// Each element of a list as the refusals quote it (`True` for a boolean start
    /// under Python's rules), for the checks against the file.
    pub items: Vec<String>,
}

/// One way of selecting, for the conflict check and for what the answer says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    Whole,
    Lines,
    OffsetLimit,
    Head,
    Tail,
    Bytes,
    Range,
}

impl Way {
    /// The role of the parameter that selects this way, for lists of ways in a dialect.
    pub fn role(self) -> Role {
        match self {
            Way::Whole => Role::Entire,
            Way::Lines => Role::StartLine,
            Way::OffsetLimit => Role::Offset,
            Way::Head => Role::Head,
            Way::Tail => Role::Tail,
            Way::Bytes => Role::StartByte,
            Way::Range => Role::LineRange,
        }
    }
}

/// What to read, and how the answer treats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    pub selection: Selection,
    pub way: Way,
    /// The name of the parameter that gave the first line, for messages.
    pub start_name: String,
    /// `offset: 0` kept: lines are numbered from 0 (Claude Code's Read).
    pub number_from_zero: bool,
    /// Whether the line template applies: `false` when the dialect numbers lines on
    /// request ([`Role::LineNumbers`]) and the call did not ask.
    pub numbered: bool,
    /// The tool's own count of lines ([`crate::tool::LineRules::default_limit`]), when
    /// the call gave no count and the selection ends there.
    pub default_count: Option<u64>,
    /// The `[start, end]` value as given, for the checks made once the file is known.
    pub range_given: Option<RangeGiven>,
}

impl Plan {
    /// Whether the call named a range (anything but a whole read).
    pub fn ranged(&self) -> bool {
        self.way != Way::Whole
    }
}

fn given<T>(n: Named<T>) -> Option<Given<T>> {
    n.map(|(name, value)| Given { name, value })
}

/// Reads the arguments of a call through the dialect's parameters.
pub(crate) fn decode(d: &Dialect, mut a: Args) -> Result<Request> {
    let mut r = Request::default();
    let mut path = None;
    for name in &d.arguments.dropped {
        a.take(&[name.as_str()])?;
    }
    for p in &d.params {
        let names: Vec<&str> = std::iter::once(p.name.as_str())
            .chain(p.aliases.iter().map(String::as_str))
            .collect();
        crate::tool::decode::types::check(d, p, &names, &mut a)?;
        let present = match p.role {
            Role::Path => {
                path = a.string(&names)?;
                path.is_some()
            }
            Role::Session => {
                r.session = a.string(&names)?.map(|v| v.1);
                r.session.is_some()
            }
            Role::Entire => {
                r.entire = given(a.boolean(&names)?);
                r.entire.is_some()
            }
            Role::LineRange => {
                let (range, range_given) =
                    crate::tool::decode::argchecks::range_arg(d, &names, &mut a)?;
                r.range = given(range);
                r.range_given = range_given;
                r.range.is_some() || r.range_given.is_some()
            }
            Role::Ignored => a.take(&names)?.is_some(),
            Role::LineNumbers => {
                r.numbers = given(a.boolean(&names)?);
                r.numbers.is_some()
            }
            Role::Mode | Role::Indentation => r.indent.decode(p.role, &names, &mut a)?,
            Role::Command => crate::tool::decode::argchecks::command(d, p, &names, &mut a)?,
            Role::Pages => {
                // An empty page range is no page range.
                r.pages = given(a.string(&names)?).filter(|g| !g.value.trim().is_empty());
                r.pages.is_some()
            }
            Role::Cells => {
                r.cells = given(a.string(&names)?).filter(|g| !g.value.trim().is_empty());
                r.cells.is_some()
            }
            Role::Crop => {
                r.crop = given(a.string(&names)?).filter(|g| !g.value.trim().is_empty());
                r.crop.is_some()
            }
            Role::LiftCaps => {
                let v = a.boolean(&names)?;
                r.lift = v.as_ref().is_some_and(|v| v.1);
                v.is_some()
            }
            role => {
                let v = number(p, &names, &mut a)?;
                let present = v.is_some();
                let slot = match role {
                    Role::StartLine => &mut r.start_line,
                    Role::EndLine => &mut r.end_line,
                    Role::Offset => &mut r.offset,
                    Role::Skip => &mut r.skip,
                    Role::Limit => &mut r.limit,
                    Role::Head => &mut r.head,
                    Role::Tail => &mut r.tail,
                    Role::StartByte => &mut r.start_byte,
                    _ => &mut r.end_byte,
                };
                *slot = v;
                present
            }
        };
        if p.required && !present {
            return Err(match &d.errors.missing {
                Some(t) => param(&p.name, fill(t, &[("name", &p.name.as_str())])),
                None => missing(&names),
            });
        }
    }
    if let Some(k) = a.unknown().filter(|_| !d.ignore_unknown) {
        let accepted = accepted(d);
        let message = match &d.errors.unknown {
            Some(t) => fill(t, &[("name", &k), ("accepted", &accepted)]),
            None => format!("Unknown parameter {k:?}; accepted: {accepted}"),
        };
        return Err(param(k, message));
    }
    if let (Some(rules), Some(g)) = (&d.pages, &r.pages) {
        crate::tool::decode::pages::check(rules, &g.name, &g.value)?;
    }
    if let Some((name, p)) = path {
        if p.is_empty() && !d.paths.empty_is_root {
            let message = match &d.errors.empty_path {
                Some(t) => fill(t, &[("name", &name.as_str())]),
                None => format!("Invalid {name}: expected a file path, got an empty string"),
            };
            return Err(param(&name, message));
        }
        // An empty path, where the dialect allows it, is the root.
        r.path = if p.is_empty() { ".".into() } else { p };
    }
    Ok(r)
}

/// The parameters a dialect takes, for the message about one it does not.
fn accepted(d: &Dialect) -> String {
    d.params
        .iter()
        .map(|p| match p.aliases.as_slice() {
            [] => p.name.clone(),
            aliases => format!("{} (or {})", p.name, aliases.join(", ")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A numeric parameter, with what its 0 and its negative values mean.
fn number(p: &Param, names: &[&str], a: &mut Args) -> Result<Option<Given<i64>>> {
    let line = matches!(p.role, Role::StartLine | Role::EndLine | Role::Offset);
    let keep_negative = p.negative == Some(Special::Keep);
    let what = if keep_negative {
        "an integer line number (1-based; negative counts from the end)"
    } else {
        "a non-negative integer"
    };
    let Some((name, v)) = a.int(names, what)? else {
        return Ok(None);
    };
    let special = if v == 0 {
        let default = if line { Special::Refuse } else { Special::Keep };
        p.zero.clone().unwrap_or(default)
    } else if v < 0 {
        p.negative.clone().unwrap_or(Special::Refuse)
    } else {
        Special::Keep
    };
    match special {
        Special::Keep => Ok(Some(Given { name, value: v })),
        Special::Absent => Ok(None),
        // No line of the head or the tail; elsewhere 0 would mean another thing.
        Special::Empty if matches!(p.role, Role::Head | Role::Tail) => {
            Ok(Some(Given { name, value: 0 }))
        }
        Special::Empty => Err(param(
            &name,
            format!("{name}: \"empty\" applies to head and tail counts only"),
        )),
        Special::Message(t) => Err(param(
            &name,
            fill(&t, &[("name", &name.as_str()), ("value", &v)]),
        )),
        Special::Refuse if v == 0 => Err(param(
            &name,
            format!("{name} (0) is invalid: lines are 1-indexed"),
        )),
        Special::Refuse => Err(invalid(&name, what, &Value::from(v))),
    }
}

/// The selection a request asks for, checked: one way of selecting at a time, an end
/// not before the start.
pub(crate) fn plan(d: &Dialect, r: &Request) -> Result<Plan> {
    let switch = d.params.iter().find(|p| p.role == Role::LineNumbers);
    let numbered = switch.is_none_or(|p| match &r.numbers {
        Some(g) => g.value,
        None => p.schema.get("default").and_then(serde_json::Value::as_bool) == Some(true),
    });
    if r.indent.wanted() {
        // The line parameters give the default anchor and cap; no widening applies
        // (the selection is not a range).
        let count = r.limit.as_ref().map(|g| g.value.max(0) as u64);
        let first = r.offset.as_ref().or(r.start_line.as_ref());
        let (selection, start_name) =
            r.indent
                .selection(d, first, count.or(d.lines.default_limit))?;
        return Ok(Plan {
            selection,
            way: Way::Lines,
            start_name,
            number_from_zero: false,
            numbered,
            default_count: d.lines.default_limit.filter(|_| count.is_none()),
            range_given: r.range_given.clone(),
        });
    }
    let name = |g: &Option<Given<i64>>| g.as_ref().map(|g| g.name.clone());
    let first = |names: &[Option<String>]| names.iter().flatten().next().cloned();
    let entire = r.entire.as_ref().filter(|e| e.value);
    let mut ways = vec![
        (
            Way::Lines,
            first(&[name(&r.start_line), name(&r.end_line)]),
            Role::StartLine,
        ),
        (
            Way::OffsetLimit,
            first(&[name(&r.offset), name(&r.skip), name(&r.limit)]),
            Role::Offset,
        ),
        (Way::Head, name(&r.head), Role::Head),
        (Way::Tail, name(&r.tail), Role::Tail),
        (
            Way::Bytes,
            first(&[name(&r.start_byte), name(&r.end_byte)]),
            Role::StartByte,
        ),
        (
            Way::Range,
            r.range.as_ref().map(|g| g.name.clone()),
            Role::LineRange,
        ),
        (Way::Whole, entire.map(|g| g.name.clone()), Role::Entire),
    ];
    ways.retain(|w| w.1.is_some());
    // Line parameters give way to the ways the dialect says they yield to.
    if ways.len() > 1
        && ways[0].0 == Way::Lines
        && ways[1..]
            .iter()
            .all(|w| d.lines.lines_yield_to.contains(&w.2))
    {
        ways.remove(0);
    }
    if let [(_, Some(a), _), (_, Some(b), _), ..] = &ways[..] {
        let message = match &d.errors.conflict {
            Some(t) => fill(t, &[("first", &a.as_str()), ("second", &b.as_str())]),
            None => format!(
                "Conflicting parameters: {a} and {b} cannot be used together; select with one \
                 of {}",
                ways_of(d)
            ),
        };
        return Err(param(b, message));
    }
    let way = ways.first().map_or(Way::Whole, |w| w.0);
    let v = |g: &Option<Given<i64>>| g.as_ref().map(|g| g.value);
    let u = |g: &Option<Given<i64>>| g.as_ref().map(|g| g.value.max(0) as u64);
    let mut start_name = "start_line".to_string();
    let mut number_from_zero = false;
    let mut default_count = None;
    let selection: Selection = match way {
        Way::Whole => match (d.lines.whole, d.lines.default_limit) {
            (Unit::Bytes, _) => ByteSelection::new(None, None).into(),
            (_, Some(n)) => {
                default_count = Some(n);
                LineSelection::offset_limit(1, Some(n)).into()
            }
            (_, None) => Selection::default(),
        },
        Way::Lines => {
            let (mut start, mut end) = (v(&r.start_line), v(&r.end_line));
            if d.lines.lenient_range {
                start = start.map(|s| if s == 0 { 1 } else { s });
                end = end.map(|e| if e >= 0 { e.max(start.unwrap_or(1)) } else { e });
            }
            if let Some(g) = &r.start_line {
                start_name = g.name.clone();
            }
            let swap = d.lines.swap_reversed;
            if let (true, Some(e)) = (swap, end) {
                let s = start.unwrap_or(1);
                if e < s {
                    (start, end) = (Some(e.max(1)), Some(s));
                }
            }
            if let (Some(s), Some(e), Some(sg), Some(eg)) = (start, end, &r.start_line, &r.end_line)
            {
                if !swap && s > 0 && e > 0 && e < s {
                    let default = format!(
                        "Invalid range specified: {} ({s}) is greater than {} ({e}).",
                        sg.name, eg.name
                    );
                    return Err(inverted(d, &eg.name, &sg.name, s, e, default));
                }
            }
            if let (true, None, Some(n)) = (d.lines.open_range_limit, end, d.lines.default_limit) {
                let first = start.unwrap_or(1);
                if first >= 1 && n > 0 {
                    end = Some(first.saturating_add(i64::try_from(n).unwrap_or(i64::MAX) - 1));
                }
            }
            LineSelection::range(start, end).into()
        }
        Way::OffsetLimit => {
            let first = match (&r.offset, &r.skip) {
                (Some(o), _) => {
                    start_name = o.name.clone();
                    number_from_zero = o.value == 0;
                    o.value.max(1) as u64
                }
                (None, Some(s)) => {
                    start_name = s.name.clone();
                    s.value as u64 + 1
                }
                (None, None) => 1,
            };
            if r.limit.is_none() {
                default_count = d.lines.default_limit;
            }
            let limit = u(&r.limit).or(d.lines.default_limit);
            LineSelection::offset_limit(first, limit).into()
        }
        Way::Head => LineSelection::Head(u(&r.head).unwrap_or(0)).into(),
        Way::Tail => LineSelection::Tail(u(&r.tail).unwrap_or(0)).into(),
        Way::Bytes => ByteSelection::new(u(&r.start_byte), u(&r.end_byte)).into(),
        Way::Range => {
            let g = r.range.as_ref().expect("a range way has its range");
            start_name = g.name.clone();
            let (mut s, e) = g.value;
            // A dialect that checks ranges against the file's lines does it before reading.
            let checked = d.lines.range_checks.is_some();
            // `"zero": "keep"` on the range parameter: a start of 0 is line 1 (Goose).
            let keep_zero = |p: &Param| p.role == Role::LineRange && p.zero == Some(Special::Keep);
            if s == 0 && d.params.iter().any(keep_zero) {
                s = 1;
            }
            if s < 1 && !checked {
                return Err(param(
                    &g.name,
                    format!("Invalid {}: the first line is 1-based, got {s}", g.name),
                ));
            }
            let end = (e != -1).then_some(e);
            if let Some(e) = end.filter(|&e| e < s && !checked) {
                let default = format!(
                    "Invalid {}: the end line {e} is before the start line {s}",
                    g.name
                );
                return Err(inverted(d, &g.name, &g.name, s, e, default));
            }
            LineSelection::range(Some(s), end).into()
        }
    };
    Ok(Plan {
        selection,
        way,
        start_name,
        number_from_zero,
        numbered,
        default_count,
        range_given: r.range_given.clone(),
    })
}

/// The error for a range that ends before it starts: the dialect's text, or `default`.
fn inverted(d: &Dialect, name: &str, start_name: &str, s: i64, e: i64, default: String) -> Error {
    let message = match &d.errors.inverted {
        Some(t) => fill(
            t,
            &[
                ("start", &s),
                ("end", &e),
                ("name", &start_name),
                ("end_name", &name),
            ],
        ),
        None => default,
    };
    param(name, message)
}

/// The ways a dialect selects, for the conflict message.
fn ways_of(d: &Dialect) -> String {
    let has = |role: Role| d.params.iter().find(|p| p.role == role).map(|p| &p.name);
    let mut ways: Vec<String> = Vec::new();
    let pair = |a: Role, b: Role| match (has(a), has(b)) {
        (Some(a), Some(b)) => Some(format!("{a}/{b}")),
        (Some(a), None) | (None, Some(a)) => Some(a.clone()),
        _ => None,
    };
    ways.extend(pair(Role::StartLine, Role::EndLine));
    ways.extend(pair(Role::Offset, Role::Limit).or_else(|| pair(Role::Skip, Role::Limit)));
    for role in [Role::Head, Role::Tail] {
        ways.extend(has(role).cloned());
    }
    ways.extend(pair(Role::StartByte, Role::EndByte));
    ways.extend(has(Role::LineRange).cloned());
    ways.extend(has(Role::Entire).cloned());
    match ways.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => ways.join(""),
    }
}
/// The first and last line (1-based, positive) of a forward line selection.
pub(crate) fn bounds(sel: &Selection) -> Option<(u64, Option<u64>)> {
    match *sel {
        Selection::Lines(LineSelection::Range { start, end }) => {
            let s = start.unwrap_or(1);
            (s > 0 && end.is_none_or(|e| e > 0)).then(|| (s as u64, end.map(|e| e as u64)))
        }
        Selection::Lines(LineSelection::OffsetLimit { offset, limit }) => {
            Some((offset, limit.map(|n| offset.saturating_add(n.max(1)) - 1)))
        }
        _ => None,
    }
}
