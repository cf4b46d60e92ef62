//! `checkers server moderator ...`: the operator's work on the server's database from
//! the command line, also while the server runs on it (SQLite lets both write, each in
//! its turn). The running server notices another program's change within a second
//! and reads the moderators again, and each player's standing at their login.

use super::db::Db;
use crate::cli::{ModeratorAction, ServerCommand};
use crate::commands::CommandError;
use std::path::Path;

/// Runs `command` on the database at `db` (the server's default one if none), which
/// must exist: the operator's mistyped path makes no new database.
pub(crate) fn run(db: Option<&Path>, command: &ServerCommand) -> Result<(), CommandError> {
    let path = match db {
        Some(path) => path.to_path_buf(),
        None => super::default_db().map_err(super::network)?,
    };
    let shown = crate::text::printable_path(&path);
    if matches!(path.try_exists(), Ok(false)) {
        return Err(super::network(format!(
            "{shown}: no such database. Check the path (the server makes its database at its \
             first start, with --create; a moderator is a player who has logged in there)"
        )));
    }
    if let Some(problem) = super::database_problem(&path) {
        return Err(super::network(problem));
    }
    let db = Db::open(&path).map_err(|e| super::network(format!("{shown}: {e}")))?;
    let ServerCommand::Moderator { action } = command;
    let out = answer(&db, action).map_err(|e| super::network(format!("{shown}: {e}")))?;
    println!("{out}");
    Ok(())
}

/// What `action` does to `db`, in words for the operator.
fn answer(db: &Db, action: &ModeratorAction) -> Result<String, String> {
    let now = crate::store::now_unix();
    let find = |name: &str| {
        db.find_player(name)?.ok_or_else(|| {
            format!(
                "no player {} on this server: a player logs in once (checkers online) \
                 before they can be made a moderator",
                crate::text::printable(name, 40)
            )
        })
    };
    Ok(match action {
        ModeratorAction::Add { name } => {
            let found = find(name)?;
            if db.set_moderator(&found, true, now)? {
                format!(
                    "{} is a moderator now (a running server knows it within a second or two).",
                    found.name
                )
            } else {
                format!("{} is a moderator already.", found.name)
            }
        }
        ModeratorAction::Remove { name } => {
            let found = find(name)?;
            if db.set_moderator(&found, false, now)? {
                format!(
                    "{} is no longer a moderator (a running server knows it within a second or two).",
                    found.name
                )
            } else {
                format!("{} was not a moderator.", found.name)
            }
        }
        ModeratorAction::List => {
            let names = db.moderators()?;
            if names.is_empty() {
                "No moderators (checkers server moderator add NAME makes one).".to_string()
            } else {
                format!("Moderators: {}.", names.join(", "))
            }
        }
        ModeratorAction::Log { last } => {
            let log = db.moderation_log(*last)?;
            if log.is_empty() {
                return Ok("No orders logged yet.".to_string());
            }
            log.iter()
                .map(|logged| {
                    let super::db::Logged {
                        at,
                        by,
                        action,
                        player,
                        detail,
                    } = logged;
                    let when = jiff::Timestamp::from_second(*at as i64)
                        .map(|t| t.strftime("%F %H:%M:%S UTC").to_string())
                        .unwrap_or_default();
                    // Named, not `?`: a reason stored before hidden characters were
                    // refused shows what it holds, as the refusal names them.
                    let detail = crate::text::with_hidden_named(detail, 300);
                    let detail = if detail.is_empty() {
                        String::new()
                    } else {
                        format!(": {detail}")
                    };
                    format!("{when}  {by} {action} {player}{detail}")
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log shows a reason stored with hidden characters (before the server refused
    /// them) with each named by its code, where it showed `?`: a text-direction
    /// override, a zero-width joiner, a line break.
    #[test]
    fn the_log_names_a_stored_reasons_hidden_characters() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("server.sqlite")).unwrap();
        db.log_moderation(7, "alice", "ban", "bob", "spam \u{202e}ecnega\u{200d}\nx")
            .unwrap();
        let log = answer(&db, &ModeratorAction::Log { last: 5 }).unwrap();
        assert!(
            log.ends_with("alice ban bob: spam <U+202E>ecnega<U+200D><U+000A>x"),
            "{log}"
        );
    }
}
