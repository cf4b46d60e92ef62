//! The list of a record file's games for `--load`: read through the file's index, so a
//! big database opened again shows its list at once; the first time, a progress bar on
//! standard error while it is read (before the screen changes).

use crate::session::GameSummary;
use crate::store::{self, StoreError};
use std::path::Path;

/// Files from this size on get a progress bar while they are read.
const PROGRESS_FROM_BYTES: u64 = 8 << 20;

/// A line for each game of the record file at `path`, as [`GameSummary::of`] makes it.
pub(crate) fn summaries(path: &Path) -> Result<Vec<GameSummary>, StoreError> {
    let mut bar = None;
    let lines = store::scan_summaries(
        path,
        |n, game| GameSummary::of(n, game).text,
        |done, total| {
            if total < PROGRESS_FROM_BYTES {
                return;
            }
            let bar = bar.get_or_insert_with(|| {
                super::progress_bar(
                    total,
                    "reading the games [{wide_bar}] {percent}% (left {eta})",
                )
            });
            bar.set_position(done);
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(lines?
        .into_iter()
        .enumerate()
        .map(|(i, text)| GameSummary {
            number: i + 1,
            text,
        })
        .collect())
}
