//! The cases of `bindings/cases/contract.json` through the shared core: the answers the
//! Python and Node bindings must give too (they drive the same file).

use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use rangeread_bindings::{options, read, Place};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn materialize(root: &Path, files: &[Value]) {
    for f in files {
        let p = root.join(f["path"].as_str().unwrap());
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        if f["dir"] == true {
            fs::create_dir_all(&p).unwrap();
        } else if let Some(t) = f["text"].as_str() {
            fs::write(&p, t).unwrap();
        } else if let Some(b) = f["base64"].as_str() {
            fs::write(
                &p,
                base64::engine::general_purpose::STANDARD.decode(b).unwrap(),
            )
            .unwrap();
        } else if let Some(from) = f["from_repo"].as_str() {
            fs::copy(repo().join(from), &p).unwrap();
        } else {
            panic!("file spec {f}");
        }
    }
}

/// `want` is contained in `got` (objects by their keys, anything else equal).
fn subset(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => w
            .iter()
            .all(|(k, v)| subset(v, g.get(k).unwrap_or(&Value::Null))),
        _ => want == got,
    }
}

fn run(case: &Value) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    materialize(&root, case["files"].as_array().unwrap());
    let reader = options::reader(case["reader"].clone()).map_err(|e| e.message)?;
    let request = match case["method"].as_str() {
        Some("read") => options::request(case["call"].clone()),
        Some("read_document") => options::document_request(case["call"].clone()),
        m => panic!("method {m:?}"),
    };
    let path = case["path"].as_str().unwrap();
    let answer = request.and_then(|request| match case.get("workspace") {
        Some(w) => {
            let ws = options::workspace(&root, w.clone())?;
            read(&reader, Place::Workspace(&ws), path, &request)
        }
        None => read(&reader, Place::Path, root.join(path), &request),
    });
    let expect = &case["expect"];
    match (answer, expect.get("result"), expect.get("error")) {
        (Ok(out), Some(want), None) => {
            let got = out.to_json();
            subset(want, &got)
                .then_some(())
                .ok_or(format!("result differs:\n  want {want}\n  got  {got}"))
        }
        (Err(e), None, Some(want)) => {
            let kind_ok = want["kind"] == e.kind.as_str();
            let message_ok = want.get("message").is_none_or(|m| {
                m == e
                    .message
                    .replace(&root.to_string_lossy().into_owned(), "{root}")
                    .as_str()
            });
            (kind_ok && message_ok).then_some(()).ok_or(format!(
                "error differs: want {want}, got {} {:?}",
                e.kind, e.message
            ))
        }
        (Ok(out), _, _) => Err(format!("expected an error, got {}", out.to_json())),
        (Err(e), _, _) => Err(format!("expected a result, got {} {:?}", e.kind, e.message)),
    }
}

#[test]
fn contract_cases() {
    let text = fs::read_to_string(repo().join("bindings/cases/contract.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let cases = file["cases"].as_array().unwrap();
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| run(c).err().map(|why| format!("{}: {why}", c["id"])))
        .collect();
    eprintln!(
        "contract cases through the core: {} passed, {} failed",
        cases.len() - failed.len(),
        failed.len()
    );
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
