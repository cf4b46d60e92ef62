//! The seat tokens of LAN games joined as a player: a joiner started again (after a
//! crash or a reboot) greets the host with the token its last welcome gave, and takes
//! its own seat back at once, where the host keeps that seat from anyone else with the
//! code. One small file a host and code, named by their hash (the code is not written).

use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// The folder of the data folder the tokens are kept in.
const FOLDER: &str = "seats";

/// The longest token read back (a host's token is 32 hexadecimal digits).
const MOST_TOKEN_BYTES: u64 = 256;

/// Where the token for the game at `address` with `code` is kept.
fn path(address: &str, code: &str) -> Option<PathBuf> {
    let mut hasher = Sha256::new();
    hasher.update(address.as_bytes());
    hasher.update([0]);
    hasher.update(crate::net::normalize_code(code).as_bytes());
    let digest = hasher.finalize();
    let name: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    Some(super::data_dir()?.join(FOLDER).join(name))
}

/// The token the last welcome from the game at `address` with `code` gave, if one was
/// kept and reads as a token.
pub(crate) fn load(address: &str, code: &str) -> Option<String> {
    let bytes = super::files::read_bounded(&path(address, code)?, MOST_TOKEN_BYTES).ok()?;
    let token = String::from_utf8(bytes).ok()?.trim().to_string();
    (!token.is_empty() && token.chars().all(|c| c.is_ascii_alphanumeric())).then_some(token)
}

/// Keeps `token` for the game at `address` with `code`. A token not kept costs only a
/// wait when the joiner is started again, so a failure is not worth stopping for.
pub(crate) fn save(address: &str, code: &str, token: &str) {
    let Some(path) = path(address, code) else {
        return;
    };
    if let Some(folder) = path.parent()
        && std::fs::create_dir_all(folder).is_ok()
    {
        // Whoever reads the token could take this seat: it is the owner's alone.
        let _ = super::files::write_private(&path, token.as_bytes());
    }
}
