//! The scan budget's advice is worded in each preset's own parameters (issue 42, §2): the
//! library's text tells a model to ask for `start_byte` or `tail`, which most presets do
//! not have. For every preset, a deep read of a file whose lines cannot be counted within
//! the host's scan budget is refused with advice that names only parameters of the
//! preset's schema, and names the ones it has for a byte range or the last lines.
//!
//! The file is the repository's own sources put end to end (over 2,500 lines, 100 KiB).

mod common;

use std::path::Path;

use common::calls::{preset_call, Ask};
use rangeread::tool::{Dialect, DialectTool, Role};
use rangeread::{ErrorKind, Workspace};
use serde_json::{json, Value};

const SOURCES: &[&str] = &[
    "src/tool/render/mod.rs",
    "src/tool/serve/mod.rs",
    "src/tool/dialect/mod.rs",
    "src/tool/serve/roots.rs",
    "src/tool/serve/caps.rs",
];

/// A call of `d` for lines 2,000-2,010 (or the whole file, for a tool with no start),
/// in its own parameters.
fn deep_read(d: &Dialect, path: &Path) -> Value {
    preset_call(d, path, Ask::Lines(2000, 2010), 10)
        .or_else(|| preset_call(d, path, Ask::Whole, 10))
        .expect("a whole read")
}

/// Every preset's parameter names, and which presets have each.
fn all_names() -> Vec<String> {
    let mut names: Vec<String> = Dialect::presets()
        .into_iter()
        .flat_map(|n| Dialect::preset(n).unwrap().params)
        .map(|p| p.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[test]
fn the_scan_budgets_advice_names_only_the_presets_own_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text: String = SOURCES
        .iter()
        .map(|s| std::fs::read_to_string(repo.join(s)).unwrap())
        .collect();
    std::fs::write(root.join("long.rs"), &text).unwrap();
    let everyone = all_names();
    let mut refused = Vec::new();
    for preset in Dialect::presets() {
        let tool = DialectTool::new(Dialect::preset(preset).unwrap())
            .reader_with(|r| r.max_scan_bytes(4096))
            .workspace(Workspace::new(&root).unwrap());
        let d = tool.dialect().clone();
        let r = tool.respond(deep_read(&d, &root.join("long.rs")));
        let record = r.record.as_ref().unwrap();
        let Some(e) = record
            .error
            .as_ref()
            .filter(|e| e.kind == ErrorKind::ScanBudget)
        else {
            continue;
        };
        refused.push(preset);
        assert_eq!(e.values["budget"], json!(4096), "{preset}: {e:?}");
        assert_eq!(e.values["file_size"], json!(text.len()), "{preset}: {e:?}");
        let schema = tool.definition().input_schema;
        let own: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        // Each parameter the advice names, in backticks, is one of the preset's.
        for (i, named) in e.message.split('`').enumerate() {
            if i % 2 == 1 {
                assert!(
                    own.iter().any(|n| *n == named),
                    "{preset}: `{named}` is not in {own:?}: {}",
                    e.message
                );
            }
        }
        // No other preset's parameter is named (the library's own text says `start_byte`
        // and `tail`).
        for name in everyone.iter().filter(|n| !own.contains(n)) {
            let quoted = [format!("`{name}`"), format!("({name})")];
            assert!(
                !quoted.iter().any(|q| e.message.contains(q.as_str())),
                "{preset}: the advice names {name}, which it does not have: {}",
                e.message
            );
        }
        // The ways the preset has are named.
        for role in [Role::StartByte, Role::Tail] {
            if let Some(p) = d.params.iter().find(|p| p.role == role) {
                let named = format!("`{}`", p.name);
                assert!(
                    e.message.contains(&named),
                    "{preset}: {named} not in {}",
                    e.message
                );
            }
        }
        assert!(
            e.message.to_lowercase().contains("call again"),
            "{preset}: {}",
            e.message
        );
    }
    assert!(refused.len() >= 10, "only {refused:?} met the scan budget");
}
