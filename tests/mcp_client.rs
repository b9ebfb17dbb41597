//! The MCP server (package `rangeread-mcp-server`) driven by a real MCP client: the official Python SDK, installed
//! (pinned) by `tests/mcp_client/run.sh` into a virtualenv under `target/`. It drives
//! every `--preset`.
//!
//! Needs `python3` with its `venv` module and access to PyPI (or `MCP_CLIENT_VENV=DIR`
//! naming a virtualenv that has `mcp` installed). Without them the test fails and says
//! what is missing; `RANGEREAD_SKIP_PYTHON=1` skips it, with a notice.

mod common;

use std::path::Path;
use std::process::Command;

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
    let server = common::mcp_server_binary();
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
