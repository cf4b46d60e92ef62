//! What a player keeps in the data folder for servers: their key (`identity.ed25519`,
//! made on first use: the secret half in hex) and the servers met, each with the
//! fingerprint pinned on first contact (`known_servers`: `ADDRESS FINGERPRINT` a line).

use crate::server::protocol::{hex, unhex};
use ed25519_dalek::SigningKey;
use std::path::{Path, PathBuf};

/// The key's file in the data folder `dir`.
fn key_file(dir: &Path) -> PathBuf {
    dir.join("identity.ed25519")
}

/// The known servers' file in the data folder `dir`.
pub(crate) fn known_servers(dir: &Path) -> PathBuf {
    dir.join("known_servers")
}

/// The file naming the server last logged in to, in the data folder `dir`.
fn last_server_file(dir: &Path) -> PathBuf {
    dir.join("last_server")
}

/// The server last logged in to (`HOST:PORT`), if any: `checkers online` alone goes
/// back there.
pub(crate) fn last_server(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(last_server_file(dir)).ok()?;
    let server = text.lines().next()?.trim();
    (!server.is_empty() && server.len() <= 300).then(|| server.to_string())
}

/// The name last logged in under at `address`, if that is the server last logged in
/// to: `checkers online` without `--name` logs in as that player again, not as a new
/// one named after the system's user.
pub(crate) fn last_name(dir: &Path, address: &str) -> Option<String> {
    let text = std::fs::read_to_string(last_server_file(dir)).ok()?;
    let mut lines = text.lines().map(str::trim);
    (lines.next()? == address).then_some(())?;
    let name = lines.next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// Keeps `address` as the server last logged in to, and `name` as the name used
/// there; a failure only forgets them.
pub(crate) fn remember_server(dir: &Path, address: &str, name: &str) {
    let _ = crate::store::write_atomic(
        &last_server_file(dir),
        format!("{address}\n{name}\n").as_bytes(),
    );
}

/// The player's key: read, or made and kept now.
pub(crate) fn key(dir: &Path) -> Result<SigningKey, String> {
    let file = key_file(dir);
    let shown = crate::text::printable_path(&file);
    match std::fs::read_to_string(&file) {
        Ok(text) => unhex::<32>(text.trim())
            .map(|secret| SigningKey::from_bytes(&secret))
            .ok_or_else(|| format!("{shown} does not hold a key (move it away to make a new one, and a new name with it)")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut secret = [0u8; 32];
            getrandom::fill(&mut secret).map_err(|e| format!("no randomness: {e}"))?;
            // The player's alone from the moment it is made: whoever reads it can
            // log in as them.
            crate::store::files::write_private(&file, format!("{}\n", hex(&secret)).as_bytes())
                .map_err(|e| format!("{shown}: {e}"))?;
            Ok(SigningKey::from_bytes(&secret))
        }
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// The fingerprint pinned for `address`, if it was met before.
pub(crate) fn pinned(dir: &Path, address: &str) -> Option<[u8; 32]> {
    let text = std::fs::read_to_string(known_servers(dir)).ok()?;
    text.lines().find_map(|line| {
        let (at, fingerprint) = line.trim().split_once(' ')?;
        (at == address).then(|| unhex::<32>(fingerprint.trim()))?
    })
}

/// Pins `fingerprint` for `address`: the file it is kept in.
pub(crate) fn pin(dir: &Path, address: &str, fingerprint: &[u8; 32]) -> Result<PathBuf, String> {
    let file = known_servers(dir);
    let mut text = std::fs::read_to_string(&file).unwrap_or_default();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&format!("{address} {}\n", hex(fingerprint)));
    crate::store::write_atomic(&file, text.as_bytes())
        .map_err(|e| format!("{}: {e}", crate::text::printable_path(&file)))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_server_is_remembered_and_read_back() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        assert_eq!(last_server(dir.path()), None);
        remember_server(dir.path(), "checkers.example.org:4620", "ann");
        remember_server(dir.path(), "127.0.0.1:4999", "bob");
        assert_eq!(last_server(dir.path()).as_deref(), Some("127.0.0.1:4999"));
        assert_eq!(
            last_name(dir.path(), "127.0.0.1:4999").as_deref(),
            Some("bob")
        );
        // The name is that server's only.
        assert_eq!(last_name(dir.path(), "checkers.example.org:4620"), None);
    }

    #[test]
    fn a_key_is_made_once_and_servers_are_pinned() {
        let dir = tempfile::tempdir().unwrap();
        let first = key(dir.path()).unwrap();
        assert_eq!(key(dir.path()).unwrap().to_bytes(), first.to_bytes());
        assert_eq!(pinned(dir.path(), "a:1"), None);
        pin(dir.path(), "a:1", &[7; 32]).unwrap();
        pin(dir.path(), "b:2", &[8; 32]).unwrap();
        assert_eq!(pinned(dir.path(), "a:1"), Some([7; 32]));
        assert_eq!(pinned(dir.path(), "b:2"), Some([8; 32]));
    }
}
