//! Helpers shared by the benchmarks of `rangeread-bench`.
//!
//! The benchmarks are a package of their own (`benches/`) so that `criterion` is not a
//! dev-dependency of `rangeread`: trying an example of the library does not compile it.

use std::path::{Path, PathBuf};

/// The repository root: the parent of this package's directory.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("benches/ lies inside the repository")
        .to_path_buf()
}

/// `bench-data/` under the repository root, where generated inputs are kept (ignored by git).
pub fn bench_data() -> PathBuf {
    let dir = repo_root().join("bench-data");
    std::fs::create_dir_all(&dir).expect("create bench-data/");
    dir
}
