//! A tokio host calling rangeread: every call on the blocking pool (docs/embedding.md,
//! "In an async host", shows this file; tests/readme.rs keeps the two the same).

use std::sync::Arc;

use rangeread::{Error, IndexCache, LineSelection, ReadResult, Reader, Workspace};

/// What the host keeps for its life; a clone shares the cache.
#[derive(Clone)]
struct Files {
    reader: Reader,
    workspace: Workspace,
}

impl Files {
    /// The host's own async read. The read blocks a thread of tokio's blocking pool,
    /// never one of the runtime's.
    async fn read(&self, path: String, lines: LineSelection) -> Result<ReadResult, Error> {
        let files = self.clone();
        tokio::task::spawn_blocking(move || files.reader.read_in(&files.workspace, path, lines))
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let files = Files {
        reader: Reader::new().cache(Arc::new(IndexCache::new(64 << 20))),
        workspace: Workspace::builder(".")
            .protect_all([".env*", "*.pem"])
            .build()?,
    };
    // Two reads at once, each on a thread of the pool.
    let (head, tail) = tokio::join!(
        files.read("Cargo.toml".into(), LineSelection::head(2)),
        files.read("Cargo.toml".into(), LineSelection::tail(2)),
    );
    print!("{}...\n{}", head?.content, tail?.content);
    Ok(())
}
