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

/// What a line of the known servers' file holds: the server's address and the
/// fingerprint pinned for it; `None` for a blank line or a comment (`#`).
type KnownLine = Option<(String, [u8; 32])>;

/// The known servers' file read line by line (none yet: no lines), each line as written
/// and what it holds. A file that cannot be read, or a line that is not `ADDRESS
/// FINGERPRINT`, is an error naming the file (and the line): nothing is pinned over
/// it, so nothing in it is lost.
fn known_lines(dir: &Path) -> Result<Vec<(String, KnownLine)>, String> {
    let file = known_servers(dir);
    let shown = crate::text::printable_path(&file);
    let text = match std::fs::read(&file) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
            format!(
                "{shown} is not text: it cannot be read as the known servers' fingerprints \
                 (nothing was pinned or changed in it; move it away to start it anew)"
            )
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(format!(
                "{shown} (the known servers' fingerprints) cannot be read: {e} (nothing was \
                 pinned or changed in it)"
            ));
        }
    };
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            let words = line.trim();
            if words.is_empty() || words.starts_with('#') {
                return Ok((line.to_string(), None));
            }
            let known = words
                .split_once(char::is_whitespace)
                .and_then(|(at, fingerprint)| {
                    Some((at.to_string(), unhex::<32>(fingerprint.trim())?))
                });
            match known {
                Some(known) => Ok((line.to_string(), Some(known))),
                None => Err(format!(
                    "{shown}, line {}: {:?} is not a server's address and its fingerprint \
                     (64 hex digits); correct or remove that line (nothing was pinned or \
                     changed in the file)",
                    index + 1,
                    crate::text::printable(words, 80)
                )),
            }
        })
        .collect()
}

/// The fingerprint pinned for `address`, if it was met before; why the known servers'
/// file cannot tell (see [`known_lines`]).
pub(crate) fn pinned(dir: &Path, address: &str) -> Result<Option<[u8; 32]>, String> {
    Ok(known_lines(dir)?
        .into_iter()
        .filter_map(|(_, known)| known)
        .find_map(|(at, fingerprint)| (at == address).then_some(fingerprint)))
}

/// Pins `fingerprint` for `address` (in place of the one pinned before, if any): the
/// file it is kept in. A file that does not read is left as it is (see
/// [`known_lines`]).
pub(crate) fn pin(dir: &Path, address: &str, fingerprint: &[u8; 32]) -> Result<PathBuf, String> {
    let file = known_servers(dir);
    let mut text = String::new();
    for (line, known) in known_lines(dir)? {
        if known.is_some_and(|(at, _)| at == address) {
            continue;
        }
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&format!("{address} {}\n", hex(fingerprint)));
    crate::store::write_atomic(&file, text.as_bytes())
        .map_err(|e| format!("{}: {e}", crate::text::printable_path(&file)))?;
    Ok(file)
}

/// A certificate's fingerprint as a player types it: as `checkers server` prints it
/// (`SHA256:AB:CD:...`), the `SHA256:` and the colons optional, any case.
pub(crate) fn parse_fingerprint(text: &str) -> Result<[u8; 32], String> {
    let text = text.trim();
    let digits = match text.get(..7) {
        Some(prefix) if prefix.eq_ignore_ascii_case("sha256:") => &text[7..],
        _ => text,
    };
    let digits: String = digits
        .chars()
        .filter(|c| *c != ':' && !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    unhex::<32>(&digits).ok_or_else(|| {
        format!(
            "a fingerprint is 32 hex pairs, as `checkers server` prints it \
             (SHA256:AD:C9:...), and {:?} is not (it has {} hex digits of 64)",
            crate::text::printable(text, 120),
            digits.chars().filter(char::is_ascii_hexdigit).count()
        )
    })
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
        assert_eq!(pinned(dir.path(), "a:1"), Ok(None));
        pin(dir.path(), "a:1", &[7; 32]).unwrap();
        pin(dir.path(), "b:2", &[8; 32]).unwrap();
        assert_eq!(pinned(dir.path(), "a:1"), Ok(Some([7; 32])));
        assert_eq!(pinned(dir.path(), "b:2"), Ok(Some([8; 32])));
        // Pinned again (a fingerprint given for a changed certificate): in place of
        // the old one, the other servers kept.
        pin(dir.path(), "a:1", &[9; 32]).unwrap();
        assert_eq!(pinned(dir.path(), "a:1"), Ok(Some([9; 32])));
        assert_eq!(pinned(dir.path(), "b:2"), Ok(Some([8; 32])));
    }

    #[test]
    fn a_known_servers_file_that_does_not_read_is_named_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let file = known_servers(dir.path());
        let good = format!("a:1 {}\n", hex(&[7; 32]));
        // A line cut short (an editor's slip): its number said, nothing pinned over it.
        let text = format!("# my servers\n{good}b:2 {}\n", &hex(&[8; 32])[..40]);
        std::fs::write(&file, &text).unwrap();
        let why = pinned(dir.path(), "c:3").unwrap_err();
        assert!(why.contains("known_servers, line 3: \"b:2 "), "{why}");
        assert!(why.contains("correct or remove that line"), "{why}");
        assert!(pin(dir.path(), "c:3", &[9; 32]).is_err());
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            text,
            "nothing lost"
        );
        // Not text at all.
        std::fs::write(&file, b"a:1 \xff\xfe\n").unwrap();
        let why = pin(dir.path(), "c:3", &[9; 32]).unwrap_err();
        assert!(why.contains("is not text"), "{why}");
        assert_eq!(std::fs::read(&file).unwrap(), b"a:1 \xff\xfe\n");
    }

    #[test]
    fn a_fingerprint_is_read_as_the_server_prints_it_with_or_without_its_prefix_and_colons() {
        let bytes: [u8; 32] = std::array::from_fn(|i| (i * 8 + 5) as u8);
        let printed = crate::server::protocol::fingerprint_text(&bytes);
        assert!(printed.starts_with("SHA256:05:0D:"), "{printed}");
        for typed in [
            printed.clone(),
            printed.to_lowercase(),
            printed["SHA256:".len()..].to_string(),
            hex(&bytes),
            format!("  {}  ", hex(&bytes).to_uppercase()),
        ] {
            assert_eq!(parse_fingerprint(&typed), Ok(bytes), "{typed}");
        }
        let why = parse_fingerprint("SHA256:05:0D:15").unwrap_err();
        assert!(why.contains("it has 6 hex digits of 64"), "{why}");
        assert!(parse_fingerprint(&format!("{printed}:00")).is_err());
    }
}
