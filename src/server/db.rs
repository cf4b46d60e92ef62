//! The server's database (SQLite): players and the keys their names are bound to,
//! ratings and their history, games and their moves. Its schema is brought up to date
//! on opening, one migration a version (SQLite's `user_version` counts them).

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::glicko2::Glicko2Rating;
use std::path::Path;
use std::time::Duration;

/// The rated games that changed the rating of the `players` row `p`, counted in SQL.
const RATED_GAMES: &str = "(SELECT count(*) FROM ratings r WHERE r.player = p.id)";

/// Both clocks as a row keeps them, in milliseconds (none: an untimed game).
type ClockColumns = (Option<i64>, Option<i64>);

/// Both clocks as columns (none for an untimed game).
fn clock_columns(clocks: Option<[Duration; 2]>) -> ClockColumns {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    match clocks {
        Some([black, white]) => (Some(ms(black)), Some(ms(white))),
        None => (None, None),
    }
}

/// The migrations, in order: the database at version N has had the first N.
const MIGRATIONS: &[&str] = &[
    // 1: players, games, moves, ratings' history.
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        key BLOB NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        created INTEGER NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        black INTEGER NOT NULL REFERENCES players(id),
        white INTEGER NOT NULL REFERENCES players(id),
        clock TEXT NOT NULL,
        rated INTEGER NOT NULL,
        start_fen TEXT NOT NULL,
        started INTEGER NOT NULL,
        result TEXT,
        ended INTEGER,
        pdn TEXT
    );
    CREATE TABLE moves (
        game INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        squares TEXT NOT NULL,
        PRIMARY KEY (game, ply)
    );
    CREATE TABLE ratings (
        player INTEGER NOT NULL REFERENCES players(id),
        game INTEGER NOT NULL REFERENCES games(id),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        PRIMARY KEY (player, game)
    );",
    // 2: when a game was adjourned (unix seconds; none while in play), so that one
    // nobody resumes ends as abandoned (moved on by the time the server was down since,
    // from migration 5).
    "ALTER TABLE games ADD COLUMN adjourned INTEGER;",
    // 3: each side's clock to the millisecond (Black's, White's time left) as the record
    // was last stored, whose own readings are in tenths (none in an older row: its
    // record's readings are read then); and the games by their end, to count the rated
    // games two players had in the last day.
    "ALTER TABLE games ADD COLUMN black_ms INTEGER;
    ALTER TABLE games ADD COLUMN white_ms INTEGER;
    CREATE INDEX games_by_end ON games(ended);",
    // 4: whether a game asked rated is played unrated for its players' rated games in
    // the last day, so that one taken back after a restart ends saying so.
    "ALTER TABLE games ADD COLUMN pair_limited INTEGER NOT NULL DEFAULT 0;",
    // 5: when the server was last known to run (unix seconds: its clean stop, else its
    // last heartbeat before it was killed), and whether it stopped cleanly then, so that
    // the time it is down does not count against an adjourned game's days: one row.
    "CREATE TABLE server_life (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        alive INTEGER NOT NULL,
        stopped INTEGER NOT NULL
    );",
    // 6: moderation: the players the operator made moderators, the bans (with the
    // reason each later login is refused with) and mutes in force, and every
    // moderator's order as it was given.
    "ALTER TABLE players ADD COLUMN moderator INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE bans (
        player INTEGER PRIMARY KEY REFERENCES players(id),
        reason TEXT NOT NULL,
        moderator TEXT NOT NULL,
        since INTEGER NOT NULL
    );
    CREATE TABLE mutes (
        player INTEGER PRIMARY KEY REFERENCES players(id),
        until INTEGER NOT NULL,
        moderator TEXT NOT NULL
    );
    CREATE TABLE moderation_log (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        moderator TEXT NOT NULL,
        action TEXT NOT NULL,
        player TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT ''
    );",
    // 7: the players each player ignores (`ignore NAME`), by name (an account's, as
    // `ignore` resolves it; lists from before that may hold names nobody has).
    "CREATE TABLE ignores (
        player INTEGER NOT NULL REFERENCES players(id),
        ignored TEXT NOT NULL,
        PRIMARY KEY (player, ignored)
    );",
    // 8: the players by their name in lower case, so that a name typed in another case
    // (`names_meant`: `challenge ALICE`, `ignore Bob`) is found without reading every
    // player.
    "CREATE INDEX players_by_lower_name ON players(lower(name));",
];

/// The names that differ from `?1` only in case, for [`Db::names_meant`]: written as
/// the index `players_by_lower_name` is, so that SQLite finds them through it.
const NAMES_IN_ANY_CASE: &str =
    "SELECT name FROM players WHERE lower(name) = lower(?1) ORDER BY name";

/// The result stored for an adjourned game nobody resumed in time.
pub(crate) const ABANDONED: &str = "abandoned";

/// How a game counts for ratings, as its row keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RatedAs {
    /// Rated: its result changes both ratings.
    Rated,
    /// Casual, as asked.
    Casual,
    /// Asked rated and played unrated: its players had their rated games of the day
    /// together (kept, so that a game taken back after a restart ends saying why it
    /// changed no rating).
    PairLimited,
}

/// A player as the database holds them.
#[derive(Clone, Debug)]
pub(crate) struct PlayerRow {
    /// The row's id.
    pub(crate) id: i64,
    /// The key the name is bound to.
    pub(crate) key: Vec<u8>,
    /// The rating.
    pub(crate) rating: Glicko2Rating,
    /// The rated games that changed their rating.
    pub(crate) rated_games: u32,
    /// Whether the operator made them a moderator.
    pub(crate) moderator: bool,
    /// When a mute in force on their key ends (unix seconds), read at their login: a
    /// mute follows the key, not only the name it was ordered on.
    pub(crate) muted_until: Option<u64>,
    /// The names they ignore (`ignore NAME`), read at their login.
    pub(crate) ignoring: Vec<String>,
}

/// What a login's name and key come to.
#[derive(Debug)]
pub(crate) enum Claim {
    /// The name is another key's.
    Taken,
    /// The name is new, and no new name may be made now.
    NoNewName,
    /// The name is new and reads like this player's (`ALICE`, `aIice` beside `alice`).
    LooksLike(String),
    /// The key is a banned player's: the ban's reason.
    Banned(String),
    /// The player's row, and whether the name was bound to the key now.
    Player(PlayerRow, bool),
}

/// A game not finished, as stored.
pub(crate) struct Unfinished {
    /// Its id.
    pub(crate) id: i64,
    /// Black's and White's names.
    pub(crate) names: [String; 2],
    /// Black's and White's rows.
    pub(crate) ids: [i64; 2],
    /// Black's and White's ratings (a player plays one game at a time, so these are
    /// their ratings when it ends too).
    pub(crate) ratings: [Glicko2Rating; 2],
    /// Black's and White's rated games that changed their ratings.
    pub(crate) rated_games: [u32; 2],
    /// The clock as given.
    pub(crate) clock: String,
    /// Whether it is rated.
    pub(crate) rated: bool,
    /// Its record so far.
    pub(crate) pdn: String,
    /// Since when it waits adjourned (unix seconds: its adjournment, moved on by the
    /// time the server was down since), if it was adjourned before the server stopped.
    pub(crate) adjourned: Option<u64>,
    /// Black's and White's time left to the millisecond as the record was stored (none
    /// in a row stored before the milliseconds were: its record's tenths hold then).
    pub(crate) clocks: Option<[Duration; 2]>,
    /// Whether it was asked rated and is played unrated, its players having had their
    /// rated games of the day together.
    pub(crate) pair_limited: bool,
}

/// The open database.
pub(crate) struct Db {
    /// The connection.
    conn: Connection,
}

/// A database error, as words.
fn said(e: rusqlite::Error) -> String {
    format!("database: {e}")
}

impl Db {
    /// Opens (making if missing) the database at `path` and migrates it.
    pub(crate) fn open(path: &Path) -> Result<Db, String> {
        let conn = Connection::open(path).map_err(said)?;
        // `checkers server moderator` writes while the server runs: each waits its turn.
        conn.busy_timeout(Duration::from_secs(10)).map_err(said)?;
        // WAL: a move's commit is one append; FULL: it is on the disk before anyone
        // hears of the move.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
        )
        .map_err(said)?;
        let mut db = Db { conn };
        db.migrate(path)?;
        Ok(db)
    }

    /// Runs `work` in one transaction, committed after it: its result, or why the
    /// transaction is not committed (then nothing `work` wrote is stored). The writes
    /// inside that are several statements each hold in a savepoint, so one that fails
    /// leaves the others whole.
    pub(crate) fn in_one_transaction<T>(
        &mut self,
        work: impl FnOnce(&mut Db) -> T,
    ) -> Result<T, String> {
        self.conn.execute_batch("BEGIN").map_err(said)?;
        let done = work(self);
        // A full disk or an I/O error rolls the whole transaction back by itself.
        if !self.in_transaction() {
            return Err("database: the transaction was rolled back".to_string());
        }
        if let Err(e) = self.conn.execute_batch("COMMIT") {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(said(e));
        }
        Ok(done)
    }

    /// Moves everything the write-ahead log holds into the database file and empties
    /// the log, so that the file alone, copied once the server has stopped, is the
    /// whole database.
    pub(crate) fn checkpoint(&self) -> Result<(), String> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            })
            .map_err(said)
            .and_then(|busy| {
                (busy == 0)
                    .then_some(())
                    .ok_or_else(|| "database: the log is in use by another reader".to_string())
            })
    }

    /// Whether a transaction is open (one the database rolled back by itself is not).
    pub(crate) fn in_transaction(&self) -> bool {
        !self.conn.is_autocommit()
    }

    /// Rolls the open transaction back, as a full disk does under a batch.
    #[cfg(test)]
    pub(crate) fn roll_back_for_test(&self) {
        self.conn.execute_batch("ROLLBACK").unwrap();
    }

    /// Moves every game's start and end `seconds` into the past, as if played then.
    #[cfg(test)]
    pub(crate) fn age_games_for_test(&self, seconds: i64) -> Result<(), String> {
        self.conn
            .execute(
                "UPDATE games SET started = started - ?1, ended = ended - ?1",
                params![seconds],
            )
            .map(drop)
            .map_err(said)
    }

    /// Moves every adjourned game's start of waiting and the server's last sign of life
    /// `seconds` into the past, as if the server had stopped (or been killed) then: its
    /// next start comes that much later.
    #[cfg(test)]
    pub(crate) fn age_server_for_test(&self, seconds: i64) -> Result<(), String> {
        self.conn
            .execute_batch(&format!(
                "UPDATE games SET adjourned = adjourned - {seconds} WHERE adjourned IS NOT NULL;
                 UPDATE server_life SET alive = alive - {seconds};"
            ))
            .map_err(said)
    }

    /// Renames the players' table away, so that every login fails as a broken database
    /// makes it.
    #[cfg(test)]
    pub(crate) fn lose_players_for_test(&self) {
        self.conn
            .execute_batch("ALTER TABLE players RENAME TO players_lost")
            .unwrap();
    }

    /// Empties `game`'s clock columns, as a row stored before they were.
    #[cfg(test)]
    pub(crate) fn forget_clocks_for_test(&self, game: i64) -> Result<(), String> {
        self.conn
            .execute(
                "UPDATE games SET black_ms = NULL, white_ms = NULL WHERE id = ?1",
                params![game],
            )
            .map(drop)
            .map_err(said)
    }

    /// Brings the schema of the database at `path` to the newest version, each
    /// migration in a transaction. A database of an older version is copied first
    /// (beside it, named with its version, see [`copy_before_upgrade`]), and the upgrade
    /// is logged with where the copy is: a program that goes wrong on the new schema
    /// can be gone back from.
    fn migrate(&mut self, path: &Path) -> Result<(), String> {
        let version: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(said)?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(format!(
                "the database is of a newer program (schema {version}; this one knows up to {known})"
            ));
        }
        // A new database (version 0) has nothing to keep.
        if version > 0 && version < known {
            let copy = copy_before_upgrade(&self.conn, path, version)?;
            tracing::info!(
                "upgrading the database from schema {version} to {known}; the database as \
                 it was is kept in {}",
                crate::text::printable_path(&copy)
            );
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction().map_err(said)?;
            tx.execute_batch(sql).map_err(said)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))
                .map_err(said)?;
            tx.commit().map_err(said)?;
        }
        Ok(())
    }

    /// The player of this name, if any.
    pub(crate) fn player(&self, name: &str) -> Result<Option<PlayerRow>, String> {
        self.conn
            .query_row(
                &format!(
                    "SELECT id, key, rating, deviation, volatility, {RATED_GAMES}, moderator
                     FROM players p
                     WHERE name = ?1"
                ),
                params![name],
                |r| {
                    Ok(PlayerRow {
                        id: r.get(0)?,
                        key: r.get(1)?,
                        rating: Glicko2Rating {
                            rating: r.get(2)?,
                            deviation: r.get(3)?,
                            volatility: r.get(4)?,
                        },
                        rated_games: r.get(5)?,
                        moderator: r.get(6)?,
                        muted_until: None,
                        ignoring: Vec::new(),
                    })
                },
            )
            .optional()
            .map_err(said)
    }

    /// The player `name` logging in with `key`: their row, and whether the name was
    /// bound to the key now (its first login, where `new_allowed`).
    pub(crate) fn claim(
        &self,
        name: &str,
        key: &[u8],
        now: u64,
        new_allowed: bool,
    ) -> Result<Claim, String> {
        // By the key: a banned player's new name is refused as their old one is.
        if let Some(reason) = self.ban_of_key(key)? {
            return Ok(Claim::Banned(reason));
        }
        let new = match self.player(name)? {
            Some(player) if player.key != key => return Ok(Claim::Taken),
            Some(_) => false,
            None if !new_allowed => return Ok(Claim::NoNewName),
            None => {
                if let Some(other) = self.name_like(name)? {
                    return Ok(Claim::LooksLike(other));
                }
                self.add_player(name, key, now)?;
                true
            }
        };
        Ok(match self.player(name)? {
            Some(mut player) => {
                player.muted_until = self.mute_of_key(key, now)?;
                player.ignoring = self.ignored_by(player.id)?;
                Claim::Player(player, new)
            }
            None => Claim::Taken,
        })
    }

    /// The names the player of row `player` ignores, in order.
    pub(crate) fn ignored_by(&self, player: i64) -> Result<Vec<String>, String> {
        let mut statement = self
            .conn
            .prepare("SELECT ignored FROM ignores WHERE player = ?1 ORDER BY ignored")
            .map_err(said)?;
        let names = statement
            .query_map(params![player], |r| r.get(0))
            .map_err(said)?;
        names.collect::<Result<_, _>>().map_err(said)
    }

    /// The player of row `player` ignores `name` (`on`), or no longer does.
    pub(crate) fn set_ignored(&self, player: i64, name: &str, on: bool) -> Result<(), String> {
        let sql = if on {
            "INSERT OR IGNORE INTO ignores (player, ignored) VALUES (?1, ?2)"
        } else {
            "DELETE FROM ignores WHERE player = ?1 AND ignored = ?2"
        };
        self.conn
            .execute(sql, params![player, name])
            .map(|_| ())
            .map_err(said)
    }

    /// The account names `name` may mean, in order: its own if an account has it,
    /// else those that differ from it only in case (none, one, or in a database from
    /// before such pairs were refused, several).
    pub(crate) fn names_meant(&self, name: &str) -> Result<Vec<String>, String> {
        if self.player(name)?.is_some() {
            return Ok(vec![name.to_string()]);
        }
        let mut statement = self.conn.prepare(NAMES_IN_ANY_CASE).map_err(said)?;
        let names = statement
            .query_map(params![name], |r| r.get(0))
            .map_err(said)?;
        names.collect::<Result<_, _>>().map_err(said)
    }

    /// A player's name that reads like `name`: the same but for case, or for the
    /// letters a screen's font may show alike (`l`, `I` and `1`; `O` and `0`).
    fn name_like(&self, name: &str) -> Result<Option<String>, String> {
        let mut statement = self
            .conn
            .prepare(&format!(
                "SELECT name FROM players WHERE {LOOKS} = ?1 LIMIT 1"
            ))
            .map_err(said)?;
        let mut rows = statement.query(params![looks(name)]).map_err(said)?;
        match rows.next().map_err(said)? {
            Some(row) => Ok(Some(row.get(0).map_err(said)?)),
            None => Ok(None),
        }
    }

    /// Binds `name` to `key` with a new rating: the name's first login.
    pub(crate) fn add_player(&self, name: &str, key: &[u8], now: u64) -> Result<(), String> {
        let fresh = Glicko2Rating::new();
        self.conn
            .execute(
                "INSERT INTO players (name, key, rating, deviation, volatility, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    name,
                    key,
                    fresh.rating,
                    fresh.deviation,
                    fresh.volatility,
                    now as i64
                ],
            )
            .map_err(said)?;
        Ok(())
    }

    /// The id the next game takes (the server numbers games itself, so that it need
    /// not wait for the database to start one).
    pub(crate) fn next_game(&self) -> Result<u64, String> {
        self.conn
            .query_row("SELECT coalesce(max(id), 0) + 1 FROM games", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|id| id as u64)
            .map_err(said)
    }

    /// A new game's row `id`, with how it counts for ratings, its record and clocks
    /// (Black's, White's time left; none for an untimed game) as it starts: one
    /// statement, so that a game played unrated for its pair's games of the day is never
    /// stored without saying so.
    pub(crate) fn add_game(
        &self,
        id: i64,
        players: [i64; 2],
        clock: &str,
        rated_as: RatedAs,
        start_fen: &str,
        (pdn, clocks): (&str, Option<[Duration; 2]>),
    ) -> Result<(), String> {
        let now = crate::store::now_unix() as i64;
        let (black_ms, white_ms) = clock_columns(clocks);
        let rated = rated_as == RatedAs::Rated;
        let pair_limited = rated_as == RatedAs::PairLimited;
        self.conn
            .execute(
                "INSERT INTO games (id, black, white, clock, rated, start_fen, started, pdn,
                 black_ms, white_ms, pair_limited)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    id,
                    players[0],
                    players[1],
                    clock,
                    rated,
                    start_fen,
                    now,
                    pdn,
                    black_ms,
                    white_ms,
                    pair_limited
                ],
            )
            .map_err(said)?;
        Ok(())
    }

    /// Stores a game's move `ply` (from 0) and its record so far with both clocks to the
    /// millisecond (Black's, White's time left; none for an untimed game), to resume it
    /// from, together (a savepoint: the store's thread commits it before the move is told
    /// to anyone).
    pub(crate) fn add_move(
        &mut self,
        game: i64,
        ply: usize,
        squares: &str,
        (pdn, clocks): (&str, Option<[Duration; 2]>),
    ) -> Result<(), String> {
        let (black_ms, white_ms) = clock_columns(clocks);
        let tx = self.conn.savepoint().map_err(said)?;
        tx.execute(
            "INSERT INTO moves (game, ply, squares) VALUES (?1, ?2, ?3)",
            params![game, ply as i64, squares],
        )
        .map_err(said)?;
        tx.execute(
            "UPDATE games SET pdn = ?2, black_ms = ?3, white_ms = ?4 WHERE id = ?1",
            params![game, pdn, black_ms, white_ms],
        )
        .map_err(said)?;
        tx.commit().map_err(said)
    }

    /// The games not finished (the server stopped or was killed during them): each
    /// with its players and record so far.
    pub(crate) fn unfinished(&self) -> Result<Vec<Unfinished>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT g.id, b.name, w.name, g.black, g.white, g.clock, g.rated, g.pdn,
                 b.rating, b.deviation, b.volatility, w.rating, w.deviation, w.volatility,
                 g.adjourned, g.black_ms, g.white_ms,
                 (SELECT count(*) FROM ratings r WHERE r.player = g.black),
                 (SELECT count(*) FROM ratings r WHERE r.player = g.white),
                 g.pair_limited
                 FROM games g JOIN players b ON b.id = g.black JOIN players w ON w.id = g.white
                 WHERE g.result IS NULL AND g.pdn IS NOT NULL ORDER BY g.id",
            )
            .map_err(said)?;
        let rows = statement
            .query_map([], |r| {
                Ok(Unfinished {
                    id: r.get(0)?,
                    names: [r.get(1)?, r.get(2)?],
                    ids: [r.get(3)?, r.get(4)?],
                    clock: r.get(5)?,
                    rated: r.get(6)?,
                    pdn: r.get(7)?,
                    adjourned: r.get::<_, Option<i64>>(14)?.map(|t| t as u64),
                    clocks: match (r.get::<_, Option<i64>>(15)?, r.get::<_, Option<i64>>(16)?) {
                        (Some(black), Some(white)) => {
                            Some([black, white].map(|ms| Duration::from_millis(ms.max(0) as u64)))
                        }
                        _ => None,
                    },
                    rated_games: [r.get(17)?, r.get(18)?],
                    pair_limited: r.get(19)?,
                    ratings: [
                        Glicko2Rating {
                            rating: r.get(8)?,
                            deviation: r.get(9)?,
                            volatility: r.get(10)?,
                        },
                        Glicko2Rating {
                            rating: r.get(11)?,
                            deviation: r.get(12)?,
                            volatility: r.get(13)?,
                        },
                    ],
                })
            })
            .map_err(said)?;
        rows.map(|row| row.map_err(said)).collect()
    }

    /// Stores that `game` was adjourned at `since` (unix seconds), or goes on (none),
    /// with both clocks as they stopped (to the millisecond; none keeps those stored), so
    /// that the time a player thought before the adjournment is not given back by a
    /// restart.
    pub(crate) fn adjourn(
        &self,
        game: i64,
        since: Option<u64>,
        clocks: Option<[Duration; 2]>,
    ) -> Result<(), String> {
        let (black_ms, white_ms) = clock_columns(clocks);
        self.conn
            .execute(
                "UPDATE games SET adjourned = ?2, black_ms = COALESCE(?3, black_ms),
                 white_ms = COALESCE(?4, white_ms) WHERE id = ?1",
                params![game, since.map(|t| t as i64), black_ms, white_ms],
            )
            .map_err(said)?;
        Ok(())
    }

    /// Stores that the server runs at `now` (unix seconds), stopping then if `stopped`:
    /// its heartbeat, and its last word as it stops.
    pub(crate) fn note_alive(&self, now: u64, stopped: bool) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO server_life (id, alive, stopped) VALUES (1, ?1, ?2)",
                params![i64::try_from(now).unwrap_or(i64::MAX), stopped],
            )
            .map_err(said)?;
        Ok(())
    }

    /// The server starts at `now` (unix seconds): the time it was down (from its stop,
    /// or its last heartbeat if it was killed) is added to every adjourned game's start
    /// of waiting, so that a game waits its days while the server runs, and `now` is
    /// noted. Gives the time it was down and whether it had stopped cleanly (none on a
    /// database's first start), together (a savepoint).
    pub(crate) fn count_downtime(&mut self, now: u64) -> Result<Option<(u64, bool)>, String> {
        let tx = self.conn.savepoint().map_err(said)?;
        let last = tx
            .query_row(
                "SELECT alive, stopped FROM server_life WHERE id = 1",
                [],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, bool>(1)?)),
            )
            .optional()
            .map_err(said)?;
        let now = i64::try_from(now).unwrap_or(i64::MAX);
        // A clock set back gives no time.
        let down = last.map(|(alive, stopped)| (now.saturating_sub(alive).max(0), stopped));
        if let Some((seconds @ 1.., _)) = down {
            tx.execute(
                "UPDATE games SET adjourned = adjourned + ?1
                 WHERE result IS NULL AND adjourned IS NOT NULL",
                params![seconds],
            )
            .map_err(said)?;
        }
        tx.execute(
            "INSERT OR REPLACE INTO server_life (id, alive, stopped) VALUES (1, ?1, 0)",
            params![now],
        )
        .map_err(said)?;
        tx.commit().map_err(said)?;
        Ok(down.map(|(seconds, stopped)| (seconds as u64, stopped)))
    }

    /// Stores a finished game: its result and record, and for a rated game both
    /// players' new ratings and their history, together (a savepoint).
    pub(crate) fn finish_game(
        &mut self,
        game: i64,
        result: &str,
        pdn: &str,
        now: u64,
        ratings: Option<[(i64, Glicko2Rating); 2]>,
    ) -> Result<(), String> {
        let tx = self.conn.savepoint().map_err(said)?;
        tx.execute(
            "UPDATE games SET result = ?2, pdn = ?3, ended = ?4 WHERE id = ?1",
            params![game, result, pdn, now as i64],
        )
        .map_err(said)?;
        for (player, r) in ratings.into_iter().flatten() {
            tx.execute(
                "UPDATE players SET rating = ?2, deviation = ?3, volatility = ?4 WHERE id = ?1",
                params![player, r.rating, r.deviation, r.volatility],
            )
            .map_err(said)?;
            tx.execute(
                "INSERT INTO ratings (player, game, rating, deviation, volatility)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![player, game, r.rating, r.deviation, r.volatility],
            )
            .map_err(said)?;
        }
        tx.commit().map_err(said)
    }

    /// The rated games that ended at `since` (unix seconds) or later and changed ratings
    /// (a rated game ended before both sides moved changed none): each with its players
    /// (Black's and White's rows) and when it ended.
    pub(crate) fn rated_results_since(&self, since: u64) -> Result<Vec<([i64; 2], u64)>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT black, white, ended FROM games g WHERE ended >= ?1 AND rated
                 AND EXISTS (SELECT 1 FROM ratings r WHERE r.player = g.black AND r.game = g.id)
                 ORDER BY ended",
            )
            .map_err(said)?;
        let since = i64::try_from(since).unwrap_or(i64::MAX);
        let rows = statement
            .query_map(params![since], |r| {
                Ok((
                    [r.get::<_, i64>(0)?, r.get::<_, i64>(1)?],
                    r.get::<_, i64>(2)?.max(0) as u64,
                ))
            })
            .map_err(said)?;
        rows.map(|row| row.map_err(said)).collect()
    }

    /// Up to `limit` of a player's finished games after the game `after`, oldest first:
    /// each game's number and record.
    pub(crate) fn records(
        &self,
        player: i64,
        after: u64,
        limit: usize,
    ) -> Result<Vec<(u64, String)>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT id, pdn FROM games WHERE (black = ?1 OR white = ?1) AND id > ?2
                 AND result IS NOT NULL ORDER BY id LIMIT ?3",
            )
            .map_err(said)?;
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let rows = statement
            .query_map(params![player, after, limit as i64], |r| {
                Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
            })
            .map_err(said)?;
        rows.map(|row| row.map_err(said)).collect()
    }

    /// A player's finished games: won, lost, drawn, abandoned.
    pub(crate) fn record(&self, player: i64) -> Result<[u32; 4], String> {
        let mut out = [0u32; 4];
        let mut statement = self
            .conn
            .prepare(
                "SELECT black = ?1, result FROM games WHERE (black = ?1 OR white = ?1)
                 AND result IS NOT NULL",
            )
            .map_err(said)?;
        let rows = statement
            .query_map(params![player], |r| {
                Ok((r.get::<_, bool>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(said)?;
        for row in rows {
            let (black, result) = row.map_err(said)?;
            let i = match (result.as_str(), black) {
                ("1-0", true) | ("0-1", false) => 0,
                ("1-0", false) | ("0-1", true) => 1,
                (ABANDONED, _) => 3,
                _ => 2,
            };
            out[i] += 1;
        }
        Ok(out)
    }
}

/// A player as a moderator's order finds them: their row and their name as the
/// database spells it.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The row's id.
    pub(crate) id: i64,
    /// The name, as the player spelled it at their first login.
    pub(crate) name: String,
    /// Whether they are a moderator.
    pub(crate) moderator: bool,
}

/// An order in the moderation log.
#[derive(Clone, Debug)]
pub(crate) struct Logged {
    /// When (unix seconds).
    pub(crate) at: u64,
    /// The moderator who gave it (`(operator)` for the command line's).
    pub(crate) by: String,
    /// What (`mute`, `ban`, `moderator add`).
    pub(crate) action: String,
    /// To whom.
    pub(crate) player: String,
    /// The minutes of a mute, the reason of a ban; else empty.
    pub(crate) detail: String,
}

/// A ban's reason as stored and told to the banned player: without the characters
/// that would hide or reorder what they read ([`crate::text::is_hidden`]: a reason
/// stored before those were refused may hold them, and reached the player as `?`), a
/// line break or tab as a space, trimmed; or words saying none was given.
pub(crate) fn ban_reason(reason: &str) -> String {
    let shown: String = reason
        .chars()
        .filter_map(|c| match c {
            c if c.is_whitespace() && c.is_control() => Some(' '),
            c if crate::text::is_hidden(c) => None,
            c => Some(c),
        })
        .collect();
    match shown.trim() {
        "" => "no reason given".to_string(),
        shown => shown.to_string(),
    }
}

/// Moderation: moderators, bans, mutes, and the log of every order.
impl Db {
    /// The player whose name is `name` but for case (names that read alike are never
    /// both made), if any.
    pub(crate) fn find_player(&self, name: &str) -> Result<Option<Found>, String> {
        self.conn
            .query_row(
                "SELECT id, name, moderator FROM players WHERE lower(name) = lower(?1)",
                params![name],
                |r| {
                    Ok(Found {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        moderator: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(said)
    }

    /// The moderators' names with the database's version (SQLite's `data_version`), if
    /// another connection committed a change since this connection's version was
    /// `seen`: the operator's `checkers server moderator` at work while the server
    /// runs. The version is read from memory, so asking often costs nearly nothing;
    /// the server's own writes never change it.
    pub(crate) fn moderators_changed_since(
        &self,
        seen: Option<i64>,
    ) -> Result<Option<(i64, Vec<String>)>, String> {
        let version: i64 = self
            .conn
            .pragma_query_value(None, "data_version", |r| r.get(0))
            .map_err(said)?;
        if seen == Some(version) {
            return Ok(None);
        }
        Ok(Some((version, self.moderators()?)))
    }

    /// The names of the moderators, in order.
    pub(crate) fn moderators(&self) -> Result<Vec<String>, String> {
        let mut statement = self
            .conn
            .prepare("SELECT name FROM players WHERE moderator = 1 ORDER BY name")
            .map_err(said)?;
        statement
            .query_map([], |r| r.get(0))
            .map_err(said)?
            .collect::<Result<Vec<String>, _>>()
            .map_err(said)
    }

    /// Makes `found` a moderator (`on`) or no longer one, logged as the operator's
    /// order at `now`: whether that changed anything.
    pub(crate) fn set_moderator(&self, found: &Found, on: bool, now: u64) -> Result<bool, String> {
        let changed = self
            .conn
            .execute(
                "UPDATE players SET moderator = ?2 WHERE id = ?1 AND moderator != ?2",
                params![found.id, on],
            )
            .map_err(said)?;
        if changed > 0 {
            let action = if on {
                "moderator add"
            } else {
                "moderator remove"
            };
            self.log_moderation(now, "(operator)", action, &found.name, "")?;
        }
        Ok(changed > 0)
    }

    /// The reason of the ban on the player whose key is `key`, if one is banned, as
    /// [`ban_reason`] tells it (one stored before hidden characters were refused may
    /// hold them).
    pub(crate) fn ban_of_key(&self, key: &[u8]) -> Result<Option<String>, String> {
        self.conn
            .query_row(
                "SELECT b.reason FROM bans b JOIN players p ON p.id = b.player
                 WHERE p.key = ?1 LIMIT 1",
                params![key],
                |r| r.get::<_, String>(0),
            )
            .optional()
            .map(|reason| reason.as_deref().map(ban_reason))
            .map_err(said)
    }

    /// When the latest mute in force at `now` on a name of `key` ends (unix seconds).
    fn mute_of_key(&self, key: &[u8], now: u64) -> Result<Option<u64>, String> {
        self.conn
            .query_row(
                "SELECT MAX(m.until) FROM mutes m JOIN players p ON p.id = m.player
                 WHERE p.key = ?1 AND m.until > ?2",
                params![key, now as i64],
                |r| r.get::<_, Option<i64>>(0),
            )
            .map(|until| until.map(|u| u as u64))
            .map_err(said)
    }

    /// The names bound to `found`'s key, `found`'s own among them: a mute or a ban
    /// reaches them all, so that a second name is no way around it.
    pub(crate) fn names_of_key(&self, found: &Found) -> Result<Vec<String>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT name FROM players
                 WHERE key = (SELECT key FROM players WHERE id = ?1) ORDER BY name",
            )
            .map_err(said)?;
        statement
            .query_map(params![found.id], |r| r.get(0))
            .map_err(said)?
            .collect::<Result<Vec<String>, _>>()
            .map_err(said)
    }

    /// Bans `found` for `reason` (a ban in force keeps its first reason and time
    /// replaced by these): `moderator`'s order at `now`.
    pub(crate) fn ban(
        &self,
        found: &Found,
        reason: &str,
        moderator: &str,
        now: u64,
    ) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO bans (player, reason, moderator, since)
                 VALUES (?1, ?2, ?3, ?4)",
                params![found.id, reason, moderator, now as i64],
            )
            .map_err(said)?;
        Ok(())
    }

    /// Lifts the ban on `found`'s key (ordered on any of its names): whether one was in
    /// force.
    pub(crate) fn unban(&self, found: &Found) -> Result<bool, String> {
        self.conn
            .execute(
                "DELETE FROM bans WHERE player IN
                 (SELECT id FROM players WHERE key = (SELECT key FROM players WHERE id = ?1))",
                params![found.id],
            )
            .map(|n| n > 0)
            .map_err(said)
    }

    /// Mutes `found` until `until` (unix seconds): `moderator`'s order.
    pub(crate) fn mute(&self, found: &Found, until: u64, moderator: &str) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO mutes (player, until, moderator) VALUES (?1, ?2, ?3)",
                params![found.id, until as i64, moderator],
            )
            .map(drop)
            .map_err(said)
    }

    /// Lifts the mute on `found`'s key (ordered on any of its names): whether one was
    /// in force at `now`.
    pub(crate) fn unmute(&self, found: &Found, now: u64) -> Result<bool, String> {
        self.conn
            .execute(
                "DELETE FROM mutes WHERE until > ?2 AND player IN
                 (SELECT id FROM players WHERE key = (SELECT key FROM players WHERE id = ?1))",
                params![found.id, now as i64],
            )
            .map(|n| n > 0)
            .map_err(said)
    }

    /// The mutes in force at `now`: each muted key's names and when it ends (unix
    /// seconds).
    pub(crate) fn mutes(&self, now: u64) -> Result<Vec<(String, u64)>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT n.name, MAX(m.until) FROM mutes m JOIN players p ON p.id = m.player
                 JOIN players n ON n.key = p.key
                 WHERE m.until > ?1 GROUP BY n.name",
            )
            .map_err(said)?;
        statement
            .query_map(params![now as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
            })
            .map_err(said)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(said)
    }

    /// Notes `moderator`'s order `action` on `player` at `now`, with `detail` (the
    /// minutes, the reason).
    pub(crate) fn log_moderation(
        &self,
        now: u64,
        moderator: &str,
        action: &str,
        player: &str,
        detail: &str,
    ) -> Result<(), String> {
        self.conn
            .execute(
                "INSERT INTO moderation_log (at, moderator, action, player, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![now as i64, moderator, action, player, detail],
            )
            .map(drop)
            .map_err(said)
    }

    /// The last `most` orders logged, the newest last.
    pub(crate) fn moderation_log(&self, most: u32) -> Result<Vec<Logged>, String> {
        let mut statement = self
            .conn
            .prepare(
                "SELECT at, moderator, action, player, detail FROM
                 (SELECT * FROM moderation_log ORDER BY id DESC LIMIT ?1) ORDER BY id",
            )
            .map_err(said)?;
        statement
            .query_map(params![most], |r| {
                Ok(Logged {
                    at: r.get::<_, i64>(0)? as u64,
                    by: r.get(1)?,
                    action: r.get(2)?,
                    player: r.get(3)?,
                    detail: r.get(4)?,
                })
            })
            .map_err(said)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(said)
    }
}

/// A name as it looks, in SQL: lower case, with `l` and `1` as `i` and `0` as `o`
/// (names are of a-z, A-Z, 0-9, `-` and `_`).
const LOOKS: &str = "replace(replace(replace(lower(name), 'l', 'i'), '1', 'i'), '0', 'o')";

/// `name` as it looks (see [`LOOKS`]).
fn looks(name: &str) -> String {
    // A server's names are ASCII: lower case here is SQLite's `lower`.
    crate::text::name_as_it_looks(name)
}

/// Copies the database open in `conn` (at `path`, of schema `version`) whole, as it
/// is, into a new file beside it named with its version (`server.schema-2.sqlite` for
/// `server.sqlite`; `server.schema-2-2.sqlite` and on if that is taken, as by an
/// upgrade that failed before): the copy's path.
fn copy_before_upgrade(
    conn: &Connection,
    path: &Path,
    version: i64,
) -> Result<std::path::PathBuf, String> {
    let stem = path
        .file_stem()
        .map_or_else(|| "server".into(), |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map_or_else(String::new, |e| format!(".{}", e.to_string_lossy()));
    let copy = (1..=100)
        .map(|n| {
            let again = if n == 1 {
                String::new()
            } else {
                format!("-{n}")
            };
            path.with_file_name(format!("{stem}.schema-{version}{again}{extension}"))
        })
        .find(|copy| std::fs::symlink_metadata(copy).is_err())
        .ok_or_else(|| {
            format!(
                "cannot upgrade the database from schema {version}: no free name beside it \
                 for a copy of it as it is (move the old copies away)"
            )
        })?;
    let target = copy.to_str().ok_or_else(|| {
        format!(
            "cannot copy the database before upgrading it: {} is not UTF-8",
            crate::text::printable_path(&copy)
        )
    })?;
    conn.execute("VACUUM INTO ?1", params![target])
        .map_err(|e| {
            format!(
                "cannot copy the database to {} before upgrading it from schema {version} \
                 (nothing was changed): {e}",
                crate::text::printable_path(&copy)
            )
        })?;
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// What the test on this thread is capturing of the log, while it captures.
        static CAPTURED: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
    }

    /// The log's writer: into the capture of the thread that logs, if it captures.
    struct ThreadCapture;

    impl std::io::Write for ThreadCapture {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            CAPTURED.with(|c| {
                if let Some(text) = c.borrow_mut().as_mut() {
                    text.extend_from_slice(bytes);
                }
            });
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What `work` gives, and what it logged (at info and above) on this thread.
    ///
    /// One subscriber for the whole test binary, installed once, writing into the
    /// capture of the thread that logs: a subscriber set for a scope on each test's
    /// thread raced the other tests' threads over tracing's shared record of which
    /// events are wanted, and the log now and then came back empty.
    fn logged<T>(work: impl FnOnce() -> T) -> (T, String) {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            let subscriber = tracing_subscriber::fmt()
                .with_writer(|| ThreadCapture)
                .with_ansi(false)
                .finish();
            tracing::subscriber::set_global_default(subscriber)
                .expect("no other test sets a global subscriber");
            // An event first seen while the subscriber was being set must learn of it.
            tracing::callsite::rebuild_interest_cache();
        });
        CAPTURED.with(|c| *c.borrow_mut() = Some(Vec::new()));
        let result = work();
        let text = CAPTURED.with(|c| c.borrow_mut().take()).unwrap_or_default();
        (result, String::from_utf8_lossy(&text).into_owned())
    }

    #[test]
    fn migrates_once_and_binds_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let db = Db::open(&path).unwrap();
        db.add_player("alice", &[1; 32], 0).unwrap();
        assert!(db.add_player("alice", &[2; 32], 0).is_err());
        drop(db);
        let db = Db::open(&path).unwrap();
        assert_eq!(db.player("alice").unwrap().unwrap().key, vec![1; 32]);
        assert!(db.player("bob").unwrap().is_none());
    }

    #[test]
    fn a_new_name_that_reads_like_a_players_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("s.sqlite")).unwrap();
        assert!(matches!(
            db.claim("alice", &[1; 32], 0, true),
            Ok(Claim::Player(_, true))
        ));
        for like in ["ALICE", "aIice", "a1ice"] {
            match db.claim(like, &[2; 32], 0, true) {
                Ok(Claim::LooksLike(other)) => assert_eq!(other, "alice"),
                other => panic!("{like}: {other:?}"),
            }
        }
        assert!(matches!(
            db.claim("alicia", &[2; 32], 0, false),
            Ok(Claim::NoNewName)
        ));
        assert!(matches!(
            db.claim("alice", &[1; 32], 0, false),
            Ok(Claim::Player(_, false))
        ));
        assert!(matches!(
            db.claim("alice", &[2; 32], 0, true),
            Ok(Claim::Taken)
        ));
    }

    #[test]
    fn a_players_games_come_a_page_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("s.sqlite")).unwrap();
        db.add_player("a", &[1; 32], 0).unwrap();
        db.add_player("b", &[2; 32], 0).unwrap();
        let [a, b] = ["a", "b"].map(|n| db.player(n).unwrap().unwrap().id);
        for game in 1..=25 {
            db.add_game(
                game,
                [a, b],
                "5+3",
                RatedAs::Casual,
                "B:W21-32:B1-12",
                ("", None),
            )
            .unwrap();
            db.finish_game(game, "1-0", "[Result \"1-0\"]", 0, None)
                .unwrap();
        }
        // One not finished is left out.
        assert_eq!(db.next_game().unwrap(), 26);
        db.add_game(
            26,
            [a, b],
            "5+3",
            RatedAs::Casual,
            "B:W21-32:B1-12",
            ("", None),
        )
        .unwrap();
        let first = db.records(a, 0, 20).unwrap();
        assert_eq!(first.len(), 20);
        let rest = db.records(b, first[19].0, 20).unwrap();
        assert_eq!(rest.len(), 5);
        assert_eq!(db.record(a).unwrap(), [25, 0, 0, 0]);
        assert_eq!(db.record(b).unwrap(), [0, 25, 0, 0]);
    }

    #[test]
    fn a_database_of_the_second_schema_keeps_its_games_and_reads_their_clocks_from_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        // A database as the program before the clocks' milliseconds left it.
        let old = Connection::open(&path).unwrap();
        for sql in &MIGRATIONS[..2] {
            old.execute_batch(sql).unwrap();
        }
        old.execute_batch(
            "PRAGMA user_version = 2;
             INSERT INTO players VALUES (1, 'a', x'01', 1500, 350, 0.06, 0);
             INSERT INTO players VALUES (2, 'b', x'02', 1500, 350, 0.06, 0);
             INSERT INTO games (id, black, white, clock, rated, start_fen, started, pdn)
             VALUES (1, 1, 2, '5+0', 1, 'B:W21-32:B1-12', 0, '[BlackClock \"0:04:58.7\"]');",
        )
        .unwrap();
        drop(old);
        let (mut db, log) = logged(|| Db::open(&path).unwrap());
        let version: i64 = db
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        // The upgrade is logged, and the database as it was kept beside it first.
        let copy = dir.path().join("s.schema-2.sqlite");
        assert!(
            log.contains(&format!(
                "upgrading the database from schema 2 to {}; the database as it was is kept in {}",
                MIGRATIONS.len(),
                copy.display()
            )),
            "{log}"
        );
        let kept = Connection::open(&copy).unwrap();
        let kept_version: i64 = kept
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept_version, 2);
        let games: i64 = kept
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap();
        assert_eq!(games, 1);
        // A database made now, or of the newest schema, is neither copied nor logged.
        let (_, fresh) = logged(|| Db::open(&dir.path().join("new.sqlite")).unwrap());
        let (_, again) = logged(|| Db::open(&path).unwrap());
        assert!(
            !fresh.contains("upgrading") && !again.contains("upgrading"),
            "{fresh}{again}"
        );
        assert!(!dir.path().join("s.schema-5.sqlite").exists());
        assert!(!dir.path().join("new.schema-0.sqlite").exists());
        let stored = db.unfinished().unwrap();
        assert_eq!(stored.len(), 1);
        assert!(stored[0].pdn.contains("0:04:58.7"));
        assert_eq!(stored[0].clocks, None);
        // Its next move keeps them to the millisecond.
        let clocks = [
            Duration::from_millis(298_766),
            Duration::from_millis(297_655),
        ];
        db.add_move(1, 0, "11-15", ("[BlackClock \"0:04:58.7\"]", Some(clocks)))
            .unwrap();
        assert_eq!(db.unfinished().unwrap()[0].clocks, Some(clocks));
    }

    /// The mark of a game played unrated for its pair's rated games of the day is in
    /// the game's own row from its first write: nothing can store the game without it.
    #[test]
    fn a_game_played_unrated_for_its_pairs_games_of_the_day_is_stored_so_with_its_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite");
        let db = Db::open(&path).unwrap();
        db.add_player("a", &[1; 32], 0).unwrap();
        db.add_player("b", &[2; 32], 0).unwrap();
        let [a, b] = ["a", "b"].map(|n| db.player(n).unwrap().unwrap().id);
        for (game, rated_as) in [
            (1, RatedAs::Rated),
            (2, RatedAs::Casual),
            (3, RatedAs::PairLimited),
        ] {
            db.add_game(game, [a, b], "5+0", rated_as, "", ("[]", None))
                .unwrap();
        }
        drop(db);
        let stored = Db::open(&path).unwrap().unfinished().unwrap();
        let kinds: Vec<_> = stored.iter().map(|g| (g.rated, g.pair_limited)).collect();
        assert_eq!(kinds, [(true, false), (false, false), (false, true)]);
    }

    #[test]
    fn the_rated_games_of_the_last_day_are_those_that_changed_ratings() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("s.sqlite")).unwrap();
        db.add_player("a", &[1; 32], 0).unwrap();
        db.add_player("b", &[2; 32], 0).unwrap();
        let [a, b] = ["a", "b"].map(|n| db.player(n).unwrap().unwrap().id);
        let rating = Glicko2Rating::new();
        let changed = Some([(a, rating), (b, rating)]);
        // Rated and changing ratings, at 100 and 200; rated but changing none (over
        // before both moved) at 300; casual at 400; unfinished.
        for (game, rated, ended, ratings) in [
            (1, true, 100, changed),
            (2, true, 200, changed),
            (3, true, 300, None),
            (4, false, 400, None),
        ] {
            let [black, white] = if game % 2 == 0 { [b, a] } else { [a, b] };
            let rated = if rated {
                RatedAs::Rated
            } else {
                RatedAs::Casual
            };
            db.add_game(game, [black, white], "5+0", rated, "", ("", None))
                .unwrap();
            db.finish_game(game, "1-0", "", ended, ratings).unwrap();
        }
        db.add_game(5, [a, b], "5+0", RatedAs::Rated, "", ("", None))
            .unwrap();
        assert_eq!(
            db.rated_results_since(0).unwrap(),
            [([a, b], 100), ([b, a], 200)]
        );
        assert_eq!(db.rated_results_since(150).unwrap(), [([b, a], 200)]);
        assert_eq!(db.player("a").unwrap().unwrap().rated_games, 2);
    }

    /// A database of the fifth schema (before moderation) opens, is copied as it was,
    /// and gains the moderators, bans, mutes and the moderation log; its players stay.
    #[test]
    fn a_database_from_before_moderation_gains_its_tables() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.sqlite");
        let db = Db::open(&path).unwrap();
        db.add_player("alice", &[1; 32], 0).unwrap();
        db.conn
            .execute_batch(
                "DROP INDEX players_by_lower_name; DROP TABLE ignores; DROP TABLE moderation_log; DROP TABLE bans;
                 DROP TABLE mutes; ALTER TABLE players DROP COLUMN moderator; PRAGMA user_version = 5;",
            )
            .unwrap();
        drop(db);
        let db = Db::open(&path).unwrap();
        assert!(dir.path().join("server.schema-5.sqlite").exists());
        let alice = db.find_player("ALICE").unwrap().unwrap();
        assert!(!alice.moderator);
        assert!(db.set_moderator(&alice, true, 7).unwrap());
        assert_eq!(db.moderators().unwrap(), ["alice"]);
        db.ban(&alice, "test", "(operator)", 7).unwrap();
        assert_eq!(db.ban_of_key(&[1; 32]).unwrap().as_deref(), Some("test"));
        assert_eq!(db.moderation_log(5).unwrap().len(), 1);
    }

    /// A database of the sixth schema (before ignore lists) opens and gains them: a
    /// player's ignored names are kept and read back at their login, unignored gone.
    #[test]
    fn a_players_ignored_names_are_kept_and_read_at_login() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.sqlite");
        let db = Db::open(&path).unwrap();
        db.add_player("alice", &[1; 32], 0).unwrap();
        db.conn
            .execute_batch(
                "DROP INDEX players_by_lower_name; DROP TABLE ignores; PRAGMA user_version = 6;",
            )
            .unwrap();
        drop(db);
        let db = Db::open(&path).unwrap();
        assert!(dir.path().join("server.schema-6.sqlite").exists());
        let alice = db.player("alice").unwrap().unwrap().id;
        for name in ["bob", "carol", "zed"] {
            db.set_ignored(alice, name, true).unwrap();
        }
        db.set_ignored(alice, "bob", true).unwrap();
        db.set_ignored(alice, "zed", false).unwrap();
        let Claim::Player(player, false) = db.claim("alice", &[1; 32], 0, true).unwrap() else {
            panic!("alice logs in");
        };
        assert_eq!(player.ignoring, ["bob", "carol"]);
    }

    /// A name in another case is looked up through the index on lower-case names, not
    /// by reading every player, in a new database and in one of the seventh schema
    /// (before the index) once opened.
    #[test]
    fn names_in_another_case_are_found_through_the_index() {
        let uses_index = |db: &Db| {
            let mut statement = db
                .conn
                .prepare(&format!("EXPLAIN QUERY PLAN {NAMES_IN_ANY_CASE}"))
                .unwrap();
            let plan: Vec<String> = statement
                .query_map(params!["ALICE"], |r| r.get(3))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            plan.iter()
                .any(|step| step.contains("USING INDEX players_by_lower_name"))
                .then_some(())
                .ok_or(plan)
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.sqlite");
        let db = Db::open(&path).unwrap();
        db.add_player("alice", &[1; 32], 0).unwrap();
        db.add_player("Bob", &[2; 32], 0).unwrap();
        assert_eq!(uses_index(&db), Ok(()));
        db.conn
            .execute_batch("DROP INDEX players_by_lower_name; PRAGMA user_version = 7;")
            .unwrap();
        assert!(uses_index(&db).is_err(), "without it, a scan");
        drop(db);
        let db = Db::open(&path).unwrap();
        assert!(dir.path().join("server.schema-7.sqlite").exists());
        assert_eq!(uses_index(&db), Ok(()));
        assert_eq!(db.names_meant("ALICE").unwrap(), ["alice"]);
        assert_eq!(db.names_meant("bob").unwrap(), ["Bob"]);
    }
}
