//! The README's MCP server is `mcp-server/examples/minimal.rs`, which CI builds (clippy
//! over every target of the workspace): the two must be the same text, so the README's
//! code cannot rot. (Its Rust blocks without rmcp are doc tests, in `src/lib.rs`.)

#[test]
fn readme_mcp_server_is_the_example_ci_builds() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let example =
        std::fs::read_to_string(format!("{root}/mcp-server/examples/minimal.rs")).unwrap();
    let start = readme
        .find("```rs\n")
        .expect("the README has the server block")
        + 6;
    let end = start + readme[start..].find("```\n").unwrap();
    assert_eq!(
        &readme[start..end],
        example,
        "README.md's ```rs block differs from mcp-server/examples/minimal.rs: copy the example in"
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
    assert_eq!(
        readme.matches("```rs\n").count(),
        1,
        "one block is the example's copy"
    );
}
