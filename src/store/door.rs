//! Where a game hosted across the network was reached, kept by its host beside the
//! game's record (`games/.NAME.door`, readable and writable by its owner alone, as the
//! seat tokens and the identity key are): its code and port, so that `checkers host
//! --resume` opens the same door again and its player's board (and its spectators')
//! comes back by itself with what it had. The code is never written into the record,
//! which players pass on, and the file goes once the game is over, abandoned or
//! deleted: a code is kept only while its game can be taken up again.

use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// The most bytes a door file is read to (a code is at most a few hundred characters).
const MOST_DOOR_BYTES: u64 = 4096;

/// The door of a hosted game: what those who join need to reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Door {
    /// The game's code, as its host was given it or drew it.
    pub(crate) code: String,
    /// The port its host listened at.
    pub(crate) port: u16,
    /// The address its host listened at (every interface, or one), for a host taken up
    /// again from the home screen, which has no `--bind`.
    #[serde(default)]
    pub(crate) bind: Option<IpAddr>,
}

/// Where the door of the game kept in `game` (a record file) is kept: `.NAME.door`
/// beside it.
fn path(game: &Path) -> PathBuf {
    let stem = game
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    game.with_file_name(format!(".{stem}.door"))
}

/// Keeps `door` for the game kept in `game`, its owner's alone from its creation. A
/// door not kept costs only a new code (said) when the game is resumed, so a failure
/// is not worth stopping for.
pub(crate) fn save(game: &Path, door: &Door) {
    let Ok(text) = serde_json::to_vec(door) else {
        return;
    };
    let _ = super::files::write_private(&path(game), &text);
}

/// The door kept for the game kept in `game`: none when there is no door file, or one
/// that does not read as a door (a code that [`crate::net::normalize_code`] would
/// refuse included).
pub(crate) fn load(game: &Path) -> Option<Door> {
    let bytes = super::files::read_bounded(&path(game), MOST_DOOR_BYTES).ok()?;
    let door: Door = serde_json::from_slice(&bytes).ok()?;
    crate::cli::parse_code(&door.code)
        .ok()
        .map(|code| Door { code, ..door })
}

/// Removes the door kept for the game kept in `game`, if any (the game is over, or its
/// file deleted).
pub(crate) fn remove(game: &Path) {
    let _ = std::fs::remove_file(path(game));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_door_is_kept_beside_its_game_for_its_owner_alone_and_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let game = folder.path().join("2024-01-02-030405-ab.pdn");
        assert_eq!(load(&game), None);
        let door = Door {
            code: "maple-4821-river-0937".to_string(),
            port: 4611,
            bind: Some(IpAddr::from([127, 0, 0, 1])),
        };
        save(&game, &door);
        let kept = folder.path().join(".2024-01-02-030405-ab.door");
        assert!(kept.is_file());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{mode:o}");
        }
        assert_eq!(load(&game), Some(door));
        std::fs::write(&kept, br#"{"code":"oak 1","port":4610}"#).unwrap();
        let older = load(&game).expect("a door with no bind reads");
        assert_eq!((older.code.as_str(), older.bind), ("oak-1", None));
        std::fs::write(&kept, br#"{"code":"","port":4610}"#).unwrap();
        assert_eq!(load(&game), None, "an empty code is no code");
        std::fs::write(&kept, b"not a door").unwrap();
        assert_eq!(load(&game), None);
        remove(&game);
        assert!(!kept.exists());
    }
}
