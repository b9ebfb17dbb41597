//! The MCP server shown in docs/mcp.md is `mcp-server/examples/minimal.rs`, and the async
//! host of docs/embedding.md is `mcp-server/examples/async_host.rs`, which CI builds
//! (clippy over every target of the workspace): each shown copy must be the same text, so
//! the shown code cannot rot. The README's Rust blocks are doc tests (`src/lib.rs`).

#[test]
fn the_shown_mcp_server_is_the_example_ci_builds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/docs/mcp.md")).unwrap();
    let example =
        std::fs::read_to_string(format!("{root}/mcp-server/examples/minimal.rs")).unwrap();
    let start = readme
        .find("```rs\n")
        .expect("docs/mcp.md has the server block")
        + 6;
    let end = start + readme[start..].find("```\n").unwrap();
    assert_eq!(
        &readme[start..end],
        example,
        "docs/mcp.md's ```rs block differs from mcp-server/examples/minimal.rs: copy the example in"
    );
    let lines = example.lines().count();
    let front = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    assert!(
        front.contains(&format!("`mcp-server/examples/minimal.rs` ({lines} lines,")),
        "README.md should give minimal.rs's length as {lines} lines"
    );
}

#[test]
fn the_shown_async_host_is_the_example_ci_builds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let docs = std::fs::read_to_string(format!("{root}/docs/embedding.md")).unwrap();
    let example =
        std::fs::read_to_string(format!("{root}/mcp-server/examples/async_host.rs")).unwrap();
    let start = docs
        .find("```rs\n")
        .expect("docs/embedding.md has the async host block")
        + 6;
    let end = start + docs[start..].find("```\n").unwrap();
    assert_eq!(
        &docs[start..end],
        example,
        "docs/embedding.md's ```rs block differs from mcp-server/examples/async_host.rs: copy the example in"
    );
    assert!(example.contains("tokio::task::spawn_blocking"));
}

#[test]
fn every_rust_block_of_the_readme_is_compiled() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for fence in readme.lines().filter(|l| l.starts_with("```rust")) {
        // `rust` blocks are doc tests (src/lib.rs includes the README); none may opt out.
        assert_eq!(
            fence, "```rust",
            "a README block that is not compiled: {fence}"
        );
    }
    assert!(
        !readme.contains("```rs\n"),
        "README blocks are doc tests, not copies"
    );
}

/// The Rust blocks of docs/*.md are doc tests too (`src/lib.rs` includes each file that
/// has one): a new file with a Rust block must be listed there, and no block may opt out
/// of compiling (`ignore`, `text` in a `rust` fence).
#[test]
fn every_rust_block_of_the_docs_is_compiled() {
    let root = env!("CARGO_MANIFEST_DIR");
    let lib = std::fs::read_to_string(format!("{root}/src/lib.rs")).unwrap();
    let mut compiled = 0;
    for entry in std::fs::read_dir(format!("{root}/docs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut in_block = false;
        let mut rust_blocks = 0;
        for line in text.lines().filter(|l| l.starts_with("```")) {
            if in_block {
                in_block = false;
                continue;
            }
            in_block = true;
            let lang = &line[3..];
            assert_ne!(
                lang, "",
                "docs/{name}: a fence without a language is compiled as Rust by rustdoc; name it"
            );
            if lang.split(',').next() == Some("rust") {
                rust_blocks += 1;
                for flag in lang.split(',').skip(1) {
                    assert!(
                        flag == "no_run" || flag == "should_panic",
                        "docs/{name}: a Rust block that is not compiled: {line}"
                    );
                }
            }
        }
        if rust_blocks > 0 {
            assert!(
                lib.contains(&format!("#[doc = include_str!(\"../docs/{name}\")]")),
                "docs/{name} has {rust_blocks} Rust blocks: include it in src/lib.rs as a doc test"
            );
            compiled += 1;
        }
    }
    assert!(compiled >= 5, "only {compiled} docs with Rust blocks found");
}

/// docs/mcp.md says what `rangeread-mcp --help` says: its synopsis names every preset the
/// server takes, and its table every flag.
#[test]
fn the_mcp_docs_name_every_preset_and_every_flag() {
    let root = env!("CARGO_MANIFEST_DIR");
    let docs = std::fs::read_to_string(format!("{root}/docs/mcp.md")).unwrap();
    let help = std::fs::read_to_string(format!("{root}/mcp-server/src/options.rs")).unwrap();
    let help = &help[help.find("pub const HELP").unwrap()..];
    let help = &help[..help.find("\";").unwrap()];
    let synopsis_at = docs
        .find("rangeread-mcp [--preset ")
        .expect("docs/mcp.md's synopsis");
    let synopsis = &docs[synopsis_at..synopsis_at + docs[synopsis_at..].find("```").unwrap()];
    for name in rangeread::tool::Dialect::preset_names() {
        assert!(
            synopsis.contains(name),
            "docs/mcp.md's synopsis does not name the preset {name}"
        );
        assert!(
            help.contains(name),
            "rangeread-mcp --help does not name the preset {name}"
        );
    }
    let mut flags: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.split('=').next().unwrap())
        .collect();
    flags.sort_unstable();
    flags.dedup();
    assert!(flags.len() >= 15, "{flags:?}");
    // The flag table's rows: a flag named in prose elsewhere is not described.
    let rows: Vec<&str> = docs.lines().filter(|l| l.starts_with("| `--")).collect();
    for flag in flags {
        let in_row = |row: &&str| {
            row.match_indices(&format!("`{flag}"))
                .any(|(at, m)| matches!(row[at + m.len()..].chars().next(), Some(' ' | '`')))
        };
        assert!(
            rows.iter().any(in_row),
            "docs/mcp.md's flag table has no row for {flag} (in rangeread-mcp --help)"
        );
    }
}
