//! The MCP server (package `rangeread-mcp-server`) driven by a real MCP client: the official Python SDK, installed
//! (pinned) by `tests/mcp_client/run.sh` into a virtualenv under `target/`. It drives
//! every `--preset`.
//!
//! Needs `python3` with its `venv` module and access to PyPI (or `MCP_CLIENT_VENV=DIR`
//! naming a virtualenv that has `mcp` installed). Without them the test fails and says
//! what is missing; `RANGEREAD_SKIP_PYTHON=1` skips it, with a notice.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/mcp_server` (package `rangeread-mcp-server`), next to this test's own
/// `deps` directory.
fn server_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    // Always ask cargo: a no-op when the server is up to date, a rebuild when the library
    // or the server changed since (a stale binary would test old code).
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args(["build", "-p", "rangeread-mcp-server", "--bin", "mcp_server"])
        // The tests of object storage need the feature: one build serves every test.
        .args(["--features", "object-store"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("run cargo build");
    assert!(
        status.success(),
        "cargo build -p rangeread-mcp-server failed"
    );
    profile_dir.join(format!("mcp_server{}", std::env::consts::EXE_SUFFIX))
}

/// The env variable that skips this test.
const SKIP: &str = "RANGEREAD_SKIP_PYTHON";

fn skip(why: &str) {
    eprintln!();
    eprintln!("==================================================================");
    eprintln!("SKIPPED mcp_client: {why}");
    eprintln!("The MCP server was NOT tested with the Python MCP SDK on this run.");
    eprintln!("==================================================================");
    eprintln!();
}

/// Fails naming what is missing and how to skip.
fn missing(what: &str) -> ! {
    panic!(
        "the Python MCP client test cannot run: {what}. Install it, or set {SKIP}=1 to \
         skip this test"
    )
}

#[test]
fn python_mcp_sdk_drives_the_server() {
    if std::env::var_os(SKIP).is_some_and(|v| v == "1") {
        return skip(&format!("{SKIP}=1 is set"));
    }
    if Command::new("python3").arg("--version").output().is_err() {
        missing("python3 is not installed (Debian/Ubuntu: apt install python3 python3-venv)");
    }
    let server = server_binary();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp_client/run.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(&server)
        .output()
        .expect("run tests/mcp_client/run.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    match out.status.code() {
        Some(0) => {}
        Some(77) => {
            missing("python3 cannot create a virtualenv (Debian/Ubuntu: apt install python3-venv)")
        }
        Some(78) => missing(
            "the Python package mcp==2.3.0 could not be installed from PyPI (no network \
             access?); MCP_CLIENT_VENV=DIR can name a virtualenv that has it",
        ),
        code => panic!(
            "the Python MCP client failed (exit {code:?}):\n{}",
            stdout
                .lines()
                .filter(|l| !l.starts_with("ok "))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}
