//! A call of a preset in its own parameters, for the tests that call every preset alike:
//! the path, a session and a command where the tool has them, a line range in whichever
//! parameters the tool gives one, and each other required parameter filled so that the
//! call reads from the file's start.

use std::path::Path;

use rangeread::tool::{Dialect, Role};
use serde_json::{json, Map, Value};

/// What a call asks for.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// No range: what the tool reads by default.
    Whole,
    /// Lines `start..=end`.
    Lines(u64, u64),
}

/// The parameter that says where a line range starts, in the order the tests prefer.
pub fn start_role(d: &Dialect) -> Option<Role> {
    [Role::StartLine, Role::Offset, Role::Skip, Role::LineRange]
        .into_iter()
        .find(|r| d.params.iter().any(|p| p.role == *r))
}

/// The call's arguments in `d`'s own parameters; a required count is `count` lines (the
/// file's length, for a call that reads the whole file). `None`: `d` cannot ask for the
/// lines asked. Panics on a required parameter of a role no call here fills.
pub fn preset_call(d: &Dialect, path: &Path, ask: Ask, count: u64) -> Option<Value> {
    let start = start_role(d);
    let range = match ask {
        Ask::Lines(s, e) if start.is_some() => Some((s, e)),
        Ask::Lines(..) => return None,
        Ask::Whole => None,
    };
    let mut args = Map::new();
    for p in &d.params {
        let v = match (p.role, range) {
            (Role::Path, _) => json!(path),
            (Role::Session, _) => json!("default"),
            (Role::Command, _) => json!("view"),
            (Role::StartLine | Role::Offset, Some((s, _))) if Some(p.role) == start => json!(s),
            (Role::Skip, Some((s, _))) if Some(p.role) == start => json!(s - 1),
            (Role::LineRange, Some((s, e))) if Some(p.role) == start => json!([s, e]),
            (Role::EndLine, Some((_, e))) if start == Some(Role::StartLine) => json!(e),
            (Role::Limit, Some((s, e))) if matches!(start, Some(Role::Offset | Role::Skip)) => {
                json!(e + 1 - s)
            }
            _ if !p.required => continue,
            // A tail that counts the empty line after a final line feed (rust-mcp-filesystem)
            // takes one more for the whole file.
            (Role::Tail, _) if d.lines.split_lines => json!(count + 1),
            (Role::Head | Role::Tail | Role::Limit | Role::EndLine, _) => json!(count),
            (Role::StartLine | Role::Offset, _) => json!(1),
            (Role::Skip, _) => json!(0),
            (other, _) => panic!("{}: a required {other:?} parameter {}", d.preset, p.name),
        };
        args.insert(p.name.clone(), v);
    }
    Some(Value::Object(args))
}
