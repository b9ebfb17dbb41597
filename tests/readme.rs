//! The MCP server shown in docs/mcp.md is `mcp-server/examples/minimal.rs`, which CI
//! builds (clippy over every target of the workspace): the two must be the same text, so
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
