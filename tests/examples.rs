//! Every example answers `--help` with its usage on stdout and exit status 0, and a
//! usage error with a non-zero status: what a new user types first.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// The examples of this package, built with this test binary's features (the build
/// `cargo test` already made is reused).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap();
    let features = common::this_builds_features(true);
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args([
            "build",
            "--quiet",
            "--example",
            name,
            "--no-default-features",
        ])
        .args(["--features", &features])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if dir.ends_with("release") {
        cargo.arg("--release");
    }
    assert!(
        cargo.status().unwrap().success(),
        "cargo build --example {name}"
    );
    dir.join("examples").join(name)
}

/// Every file under `examples/`, by name.
fn examples() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_example_answers_help_with_exit_status_0() {
    let names = examples();
    assert!(names.len() >= 5, "{names:?}");
    for name in names {
        let exe = example(&name);
        for flag in ["--help", "-h"] {
            let out = Command::new(&exe).arg(flag).output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{name} {flag}: {stdout}");
            assert!(
                stdout.contains("usage") && stdout.contains("--help"),
                "{name} {flag} prints its usage: {stdout}"
            );
        }
        let out = Command::new(&exe).arg("--no-such-flag").output().unwrap();
        assert!(
            !out.status.success(),
            "{name} refuses an unknown flag: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
