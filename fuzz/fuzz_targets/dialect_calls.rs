//! Invariant: any JSON arguments, given to any preset's tool over a small workspace, get
//! an answer — text, or an error the dialect words — and never a panic.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rangeread::tool::{Dialect, DialectTool};
use rangeread::Workspace;

/// A workspace with a few files, and every preset's tool over it.
fn tools() -> &'static (tempfile::TempDir, Vec<DialectTool>) {
    static TOOLS: OnceLock<(tempfile::TempDir, Vec<DialectTool>)> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "one\ntwo\r\nthree é\n\nfive").unwrap();
        std::fs::write(dir.path().join("b.rs"), "fn main() {\n    run();\n}\n").unwrap();
        std::fs::write(dir.path().join("e.txt"), "").unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        let ws = Workspace::new(dir.path()).unwrap();
        let tools = Dialect::presets()
            .into_iter()
            .map(|name| DialectTool::new(Dialect::preset(name).unwrap()).workspace(ws.clone()))
            .collect();
        (dir, tools)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(mut args) = serde_json::from_slice::<serde_json::Value>(rest) else { return };
    let (dir, tools) = tools();
    // Paths the dialects take absolute get the workspace's absolute path.
    if let Some(obj) = args.as_object_mut() {
        for key in ["file_path", "path", "filename", "target_file"] {
            if let Some(serde_json::Value::String(p)) = obj.get_mut(key) {
                if !p.starts_with('/') {
                    *p = dir.path().join(&*p).to_string_lossy().into_owned();
                }
            }
        }
    }
    let tool = &tools[pick as usize % tools.len()];
    let _ = tool.respond(args);
});
