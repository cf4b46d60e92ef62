//! The chat of a game hosted across the network, kept by the host beside the game's
//! record (`games/.NAME.chat`, readable by its owner alone), so that `checkers host
//! --resume` has it again: on the host's screen, and in the welcome of a board that joins
//! again. It is not written into the record itself, which players pass on.

use std::path::{Path, PathBuf};

/// The most bytes a chat file is read to (the host keeps 50 lines of at most 300
/// characters each).
const MOST_CHAT_BYTES: u64 = 1 << 20;

/// Where the chat of the game kept in `game` (a record file) is kept: `.NAME.chat`
/// beside it.
fn path(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    game.with_file_name(format!(".{stem}.chat"))
}

/// Keeps `chat` (who said what, oldest first) for the game kept in `game`. A chat not
/// kept costs only its lines after a resume, so a failure is not worth stopping for.
pub(crate) fn save(game: &Path, chat: &[(String, String)]) {
    let path = path(game);
    let Ok(text) = serde_json::to_vec(chat) else {
        return;
    };
    let _ = super::files::write_private(&path, &text);
}

/// The chat kept for the game kept in `game`, oldest first: none when there is no chat
/// file, or one that does not read as a chat.
pub(crate) fn load(game: &Path) -> Vec<(String, String)> {
    super::files::read_bounded(&path(game), MOST_CHAT_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// Removes the chat kept for the game kept in `game`, if any (the game's file is
/// deleted).
pub(crate) fn remove(game: &Path) {
    let _ = std::fs::remove_file(path(game));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_is_kept_beside_its_game_and_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let game = folder.path().join("2024-01-02-030405-ab.pdn");
        assert!(load(&game).is_empty());
        let chat = vec![
            ("Bob".to_string(), "see you tomorrow".to_string()),
            ("Ann".to_string(), "\"quoted\", with commas".to_string()),
        ];
        save(&game, &chat);
        assert!(folder.path().join(".2024-01-02-030405-ab.chat").is_file());
        assert_eq!(load(&game), chat);
        std::fs::write(path(&game), b"not a chat").unwrap();
        assert!(load(&game).is_empty());
        remove(&game);
        assert!(!path(&game).exists());
    }
}
