//! The fuzzy score that orders the titles of a no-match error: how well the search text
//! matches somewhere inside a title, allowing typos.

/// A score in `[0, 1]`: 1 when `query` occurs in `title` (case-insensitive), less by the
/// edit distance of `query` to its best-matching substring of `title` (Sellers'
/// approximate substring matching), relative to the length of `query`.
pub(crate) fn score(query: &str, title: &str) -> f64 {
    let q: Vec<char> = query.to_lowercase().chars().collect();
    let t: Vec<char> = title.to_lowercase().chars().take(512).collect();
    if q.is_empty() {
        return 1.0;
    }
    // prev[j]: edit distance of q[..i] to the best substring of t ending at j.
    let mut prev = vec![0usize; t.len() + 1];
    let mut cur = vec![0usize; t.len() + 1];
    for (i, qc) in q.iter().enumerate() {
        cur[0] = i + 1;
        for (j, tc) in t.iter().enumerate() {
            let sub = prev[j] + usize::from(qc != tc);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let best = prev.iter().copied().min().unwrap_or(q.len());
    1.0 - best as f64 / q.len() as f64
}

#[cfg(test)]
mod tests {
    use super::score;

    #[test]
    fn typos_score_above_unrelated_titles() {
        assert_eq!(score("parser", "Fix the PARSER bug"), 1.0);
        let typo = score("pasrer", "Fix the parser bug");
        let other = score("pasrer", "Release notes for 0.3");
        assert!(typo > other, "{typo} vs {other}");
        assert!(score("x", "") < 1.0);
    }
}
