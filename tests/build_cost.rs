//! The crate counts the docs state, checked against `cargo tree`: each stated number
//! must be in the file where it is stated (so that the two move together) and within
//! 10% of what `cargo tree` counts today. A count is of the packages a build compiles,
//! the root package included; "+N" is what a feature adds to the build without it.

use std::process::Command;

/// The packages (`name vX`) of `cargo tree ARGS`: normal and build dependencies (and
/// dev-dependencies of the root with `dev`).
fn packages(args: &[&str], dev: bool) -> usize {
    let edges = if dev {
        "normal,build,dev"
    } else {
        "normal,build"
    };
    let out = Command::new(env!("CARGO"))
        .args([
            "tree", "--locked", "--prefix", "none", "-f", "{p}", "-e", edges,
        ])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim_end_matches(" (*)").trim_end_matches(" (proc-macro)"))
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names.len()
}

fn lib(features: &[&str]) -> usize {
    let mut args = vec!["-p", "rangeread", "--no-default-features"];
    let joined = features.join(",");
    if !features.is_empty() {
        args.extend(["--features", &joined]);
    }
    packages(&args, false)
}

fn server(features: &str) -> usize {
    let mut args = vec!["-p", "rangeread-mcp-server"];
    if !features.is_empty() {
        args.extend(["--features", features]);
    }
    packages(&args, false)
}

/// `stated` must appear in `file` and be within 10% of `counted`.
fn check(file: &str, text: &str, stated: usize, counted: usize, failures: &mut Vec<String>) {
    let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
    let content = std::fs::read_to_string(&path).unwrap();
    let flat = content.split_whitespace().collect::<Vec<_>>().join(" ");
    if !flat.contains(text) {
        failures.push(format!(
            "{file} no longer says {text:?}: update tests/build_cost.rs"
        ));
    }
    let off = (stated as f64 - counted as f64).abs() / counted.max(1) as f64;
    if off > 0.10 {
        failures.push(format!(
            "{file} says {text:?} ({stated}); cargo tree counts {counted}: update the doc"
        ));
    }
}

#[test]
fn the_stated_crate_counts_are_within_ten_percent_of_cargo_tree() {
    let mut f = Vec::new();
    let none = lib(&[]);
    let default = packages(&["-p", "rangeread"], false);
    let example = packages(&["-p", "rangeread"], true);
    let readme = "README.md";
    check(
        readme,
        "47 crates without default features",
        47,
        none,
        &mut f,
    );
    check(readme, "48 with them", 48, default, &mut f);
    check(
        readme,
        "62 for `cargo build --example read`",
        62,
        example,
        &mut f,
    );
    for (feature, stated, text) in [
        ("sessions", 1, "+1 crate (`ruzstd`"),
        ("legacy-encodings", 0, "+0 crates |"),
        ("opencode", 11, "+11 crates, the slowest"),
        ("schemars", 6, "+6 crates |"),
        ("images", 23, "+23 crates, pure Rust"),
        ("pdf", 45, "+45 crates, pure Rust"),
        ("object-store", 125, "+125 crates (an HTTP client"),
    ] {
        check(readme, text, stated, lib(&[feature]) - none, &mut f);
    }
    // At most 60, and one more justified: the project rules (`ignore`, which reads
    // `.gitignore` files as git does, with `walkdir`, `same-file` and three `crossbeam`
    // crates) took the build from 55 to 61; `bytecount` (no dependencies of its own) counts
    // line feeds 2.5x as fast as memchr's count, 62. A new crate beyond that needs its
    // reason here and in docs/performance.md's table.
    assert!(
        example <= 62,
        "cargo build --example read compiles {example} crates (at most 62: see the comment)"
    );

    let base = server("");
    assert!(
        base <= 100,
        "rangeread-mcp's default build compiles {base} crates (at most 100)"
    );
    let docs = server("documents") - base;
    let os = server("object-store") - base;
    check(
        readme,
        "its own package (`mcp-server/`): rmcp and tokio, 95 crates",
        95,
        base,
        &mut f,
    );
    check(
        readme,
        "`--features documents` for PDFs and large images (+51)",
        51,
        docs,
        &mut f,
    );
    check(
        readme,
        "`--features object-store` for `s3://` roots (+91",
        91,
        os,
        &mut f,
    );
    let mcp = "docs/mcp.md";
    check(mcp, "| none (the default) | 95 |", 95, base, &mut f);
    check(mcp, "| `documents` | +51 |", 51, docs, &mut f);
    check(
        mcp,
        "(`image`: +20)",
        20,
        server("rangeread/images") - base,
        &mut f,
    );
    check(
        mcp,
        "lopdf, pdf-extract: +37)",
        37,
        server("rangeread/pdf") - base,
        &mut f,
    );
    check(
        mcp,
        "| `opencode` | +10 |",
        10,
        server("opencode") - base,
        &mut f,
    );
    check(mcp, "| `object-store` | +91 |", 91, os, &mut f);
    let toml = "mcp-server/Cargo.toml";
    check(toml, "the default build 95", 95, base, &mut f);
    check(toml, "+51 crates, pure Rust", 51, docs, &mut f);
    check(toml, "TLS: +91 crates", 91, os, &mut f);
    let perf = "docs/performance.md";
    check(
        perf,
        "reads `.gitignore` files as git does | 61 |",
        61,
        example,
        &mut f,
    );
    assert!(f.is_empty(), "{}", f.join("\n"));
}
