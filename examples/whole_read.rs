//! `whole_read`: times `Reader::read` of a whole file with the limits off, in process.
//!
//! ```text
//! cargo run --release --example whole_read -- FILE [READS] [ROUNDS]
//! ```
//!
//! Reads FILE whole (`max_lines(0)`, `max_bytes(0)`, the line-length budget at its
//! default; the file opened for each read, as a tool call does) READS times a round
//! (default 200), ROUNDS rounds (default 5), and prints the mean time per read of the
//! best round and of each round. Run it under `valgrind --tool=callgrind` with `1 1` and with `21 1` for the
//! instructions per read.

use std::time::Instant;

use rangeread::{LineSelection, Reader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: whole_read FILE [READS] [ROUNDS]")?;
    let reads: u32 = args.next().map_or(Ok(200), |s| s.parse())?;
    let rounds: u32 = args.next().map_or(Ok(5), |s| s.parse())?;
    let reader = Reader::new().max_lines(0).max_bytes(0);
    let mut best = f64::MAX;
    let mut each = Vec::new();
    let mut bytes = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..reads {
            let r = reader.read(&path, LineSelection::range(None, None))?;
            bytes = r.content.len();
        }
        let per = t.elapsed().as_secs_f64() * 1e3 / f64::from(reads.max(1));
        best = best.min(per);
        each.push(format!("{per:.3}"));
    }
    println!(
        "{bytes} bytes: best {best:.3} ms a read (rounds: {} ms)",
        each.join(", ")
    );
    Ok(())
}
