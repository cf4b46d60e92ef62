//! The server's state: who is online, the open seeks, the games in play. One lock
//! guards it all (never held across a wait), so that a move is checked and taken in
//! one step, in the order the server took it. What changes is stored through the
//! database's thread ([`Store`]) and told through the [`Outbox`], which holds every
//! message until the writes asked before it are on the disk.

mod moderation;

use super::db::RatedAs;
use super::outbox::{Outbox, Post, Recipient};
use super::protocol::{self, ClientMessage, ServerMessage};
use super::store::Store;
use crate::game::Game;
use crate::net::guesses::Guesses;
use crate::rules::Color;
use crate::session::{News, Seats, Session, TimeControl};
pub(crate) use moderation::banned_words;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Instant;
use tokio::sync::mpsc;

/// The most seeks `seeks` lists (the oldest first).
const MOST_SEEKS_LISTED: usize = 100;
/// The most players `who` and games `games` list: a crowd must not make an answer
/// longer than a client reads in one line.
const MOST_LISTED: usize = 200;
/// The window a table's chat lines are counted in (see [`Limits::table_chat`]).
///
/// [`Limits::table_chat`]: super::Limits::table_chat
const TABLE_CHAT_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);
/// How long an adjourned game waits, once one of its players is back at it, for the
/// other: then it goes on, the clocks running, so that a player cannot keep their own
/// clock stopped (a game adjourned the moment the opponent glanced at the lobby, or
/// restored after a restart) by staying away.
pub(crate) const ONE_BACK_WAIT: std::time::Duration = std::time::Duration::from_secs(120);
/// How often the server notes in the database that it runs: if it is killed, the time
/// it is down counts from its last note (see `Db::count_downtime`).
const HEARTBEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);
/// The moves (plies) a rated game must have had after its opening to change ratings:
/// one of each side, so that a game resigned or lost on time before both played (a
/// second account feeding a rating) counts for nothing.
const RATED_FROM_PLIES: usize = 2;
/// The most new names one address (an IPv6 /64) makes in [`NEW_NAMES_WINDOW`]: a club
/// behind one router signs up in an evening, a script making names to feed a rating
/// is held back.
pub(crate) const NEW_NAMES_PER_WINDOW: usize = 10;
/// The window [`NEW_NAMES_PER_WINDOW`] counts in.
pub(crate) const NEW_NAMES_WINDOW: std::time::Duration = std::time::Duration::from_secs(3600);
/// The most rated games between the same two players that change ratings in
/// [`RATED_PAIR_WINDOW`]: a later one is played unrated (both told before it starts), so
/// that one person cannot feed one name's rating by short games against another name of
/// theirs. Counted from the database's finished games, so a restart forgets none.
pub(crate) const RATED_PER_PAIR: usize = 3;
/// The window [`RATED_PER_PAIR`] counts in (a rolling day).
pub(crate) const RATED_PAIR_WINDOW: std::time::Duration = std::time::Duration::from_secs(86_400);
/// The rated games a player has had before a result against them moves an established
/// player's rating in full: against one who has had `k`, fewer than this, an established
/// player's rating (one who has had this many or more) moves `k` / this of what Glicko-2
/// gives (its deviation as Glicko-2 gives), so that new names, each good for
/// [`RATED_PER_PAIR`] games, feed little; the new player's own rating moves in full.
pub(crate) const PROVISIONAL_GAMES: u32 = 10;
/// How often the others at a table hear where a player is, each kind of notice (gone to
/// the lobby, left, back at the game): one stepping in and out again and again is told
/// once an interval at most, where they are then told once the interval has passed.
const PRESENCE_NOTICE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// What a lobby is set up with: where the server is, and its limits.
pub(crate) struct Settings {
    /// Where the server is, for the records' Site tag.
    pub(crate) site: String,
    /// How long an adjourned game waits for its players before it is abandoned.
    pub(crate) adjourned_for: std::time::Duration,
    /// The lines a table's chat carries in [`TABLE_CHAT_WINDOW`] (see
    /// [`Limits::table_chat`](super::Limits::table_chat)).
    pub(crate) table_chat: usize,
}

/// A player online.
struct Online {
    /// The connection's number, so a stale connection's leaving does not drop a newer.
    conn: u64,
    /// The address the player connects from: wrong invite codes are counted by it.
    address: IpAddr,
    /// The player's row in the database.
    id: i64,
    /// Their rating (it changes only at the end of their game, here).
    rating: Glicko2Rating,
    /// Their rated games that changed their rating.
    rated_games: u32,
    /// Where their messages go.
    out: mpsc::Sender<ServerMessage>,
    /// The game they play, if any.
    game: Option<u64>,
    /// The game they watch, if any.
    watching: Option<u64>,
    /// Whether their client shows a board: it is told its table as a
    /// [`ServerMessage::Table`] after each change.
    board: bool,
}

/// An open seek.
struct Seek {
    /// Who posted it.
    by: String,
    /// Its clock.
    clock: TimeControl,
    /// The clock as given.
    clock_text: String,
    /// Whether the game would be rated.
    rated: bool,
    /// A challenge's player: the only one who sees the seek and may take it.
    only: Option<String>,
    /// A private table's code: the seek is hidden, and taken with the code only.
    code: Option<String>,
    /// The side and opening asked.
    terms: Terms,
}

/// What a seek asks of its game beyond the clock: a side, an opening.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Terms {
    /// The side the seeker plays; none: by lot.
    pub(crate) side: Option<Color>,
    /// Whether the game opens with a ballot drawn from the three-move deck.
    pub(crate) ballot: bool,
}

impl Terms {
    /// The terms a client's message asks: a side (none: by lot) and whether a ballot.
    fn asked(side: Option<protocol::Side>, ballot: bool) -> Terms {
        Terms {
            side: side.map(Color::from),
            ballot,
        }
    }

    /// The terms in words, after the clock and kind, for `who` (the seeker's name, or
    /// `you`): `, alice plays White, a ballot opening`.
    fn text(&self, who: &str) -> String {
        let mut text = String::new();
        if let Some(side) = self.side {
            let verb = if who == "you" { "play" } else { "plays" };
            text.push_str(&format!(", {who} {verb} {side}"));
        }
        if self.ballot {
            text.push_str(", a ballot opening");
        }
        text
    }
}

impl Seek {
    /// Whether `name` sees this seek in the list.
    fn shown_to(&self, name: &str) -> bool {
        self.code.is_none() && (self.by == name || self.only.as_deref().is_none_or(|o| o == name))
    }
}

/// A game just ended, which its players may play again, colours swapped.
struct Rematch {
    /// Black's and White's names in the game ended.
    names: [String; 2],
    /// Its clock.
    clock: TimeControl,
    /// The clock as given.
    clock_text: String,
    /// Whether it was rated.
    rated: bool,
    /// The ballot it opened with: the rematch plays the other side of it, as a match
    /// plays each ballot with both colours.
    opening: Option<crate::engine::Opening>,
    /// Who offered the rematch, if one did.
    offered_by: Option<String>,
    /// The lines of its table's chat, the game's last ones kept: its players talk on
    /// after the game ("good game") within the table's bound.
    chat: Chat,
}

/// Where a player of a game is, as the others at its table are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whereabouts {
    /// At the game's board.
    At,
    /// Away from it in the lobby.
    Lobby,
    /// Not online.
    Gone,
}

/// What the others at a table were last told of where each player is, and when each
/// kind of notice (one for each of [`Whereabouts`]) last went.
#[derive(Clone, Copy, Debug)]
struct Presence {
    /// Where Black, White were last told to be.
    told: [Whereabouts; 2],
    /// When Black's, White's last notice of each kind went.
    last: [[Option<Instant>; 3]; 2],
}

impl Presence {
    /// Both players told to be `at`.
    fn told(at: Whereabouts) -> Presence {
        Presence {
            told: [at; 2],
            last: [[None; 3]; 2],
        }
    }
}

/// A game in play, refereed here.
struct Table {
    /// The game, its rules and clocks.
    session: Session,
    /// Black's and White's names.
    names: [String; 2],
    /// Black's and White's rows.
    ids: [i64; 2],
    /// Black's and White's ratings as the game started (a player plays one game at a
    /// time: the ratings it changes at its end).
    ratings: [Glicko2Rating; 2],
    /// Black's and White's rated games that changed their ratings, as it started.
    rated_games: [u32; 2],
    /// Whether it is rated.
    rated: bool,
    /// Why a game asked rated is played unrated (its players had [`RATED_PER_PAIR`]
    /// rated games in 24 hours), as the result line says it.
    unrated_why: Option<String>,
    /// The clock as given.
    clock: String,
    /// The clock's control, for a rematch (none for a game taken back from the
    /// database, whose rematch reads `clock` again).
    control: Option<TimeControl>,
    /// Since when (unix seconds) the game waits for a player to come back, its clocks
    /// stopped (moved on by the time the server was down since); none while in play.
    adjourned: Option<u64>,
    /// Whether Black, White adjourned it (`adjourn`) and stays in the lobby: away from
    /// it, and not told its table, until they resume it (or log in again).
    away: [bool; 2],
    /// Since when one player alone has been back at the adjourned game (see
    /// [`ONE_BACK_WAIT`]).
    one_back_since: Option<Instant>,
    /// The seat (0 Black, 1 White) of a player a moderator disconnected from the game:
    /// it waits for them however long the other is back, so that a kick never loses
    /// it; forgotten once it goes on.
    held_for: Option<usize>,
    /// The lines said at the table in the last [`TABLE_CHAT_WINDOW`].
    chat: Chat,
    /// What the others were last told of where each player is.
    presence: Presence,
}

impl Table {
    /// The message telling the player of `color` that the game starts or goes on.
    fn started(&self, game: u64, color: Color) -> ServerMessage {
        let played = self.session.game();
        let ballot = self.session.ballot();
        let (clocks, running) = self.clocks_now();
        ServerMessage::Started {
            game,
            black: self.names[0].clone(),
            white: self.names[1].clone(),
            side: color.into(),
            clock: self.clock.clone(),
            rated: self.rated,
            fen: played.position().to_string(),
            moves: played.moves().iter().map(ToString::to_string).collect(),
            ballot: ballot.map(crate::session::ballot_text),
            ballot_moves: ballot.map_or(0, |o| o.line.len()),
            clocks,
            running,
        }
    }

    /// Black's and White's time left now, in milliseconds (none: untimed), and the side
    /// whose clock runs (none while the game waits, adjourned): what a plain client is
    /// told to count from.
    fn clocks_now(&self) -> (Option<[u64; 2]>, Option<protocol::Side>) {
        let Some((left, running)) = self.session.followed().clocks else {
            return (None, None);
        };
        let millis = left.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let running = running.filter(|_| self.adjourned.is_none());
        (Some(millis), running.map(Into::into))
    }

    /// Black's and White's time left as the record keeps it (when their clock last
    /// stopped, or their turn began), to the millisecond; none in an untimed game.
    fn clocks(&self) -> Option<[std::time::Duration; 2]> {
        let clock = self.session.clock()?;
        Some(Color::ALL.map(|c| clock.reading(c)))
    }

    /// The current record, as PDN.
    fn pdn(&self, site: &str) -> String {
        let mut record = self.session.record(&crate::store::today());
        record.set_tag("Event", "checkers server");
        record.set_tag("Site", site);
        crate::pdn::write_game(&record)
    }

    /// The side `name` plays at this table, if they play here.
    fn side_of(&self, name: &str) -> Option<Color> {
        let seat = self.names.iter().position(|n| n == name)?;
        Some(if seat == 0 {
            Color::Black
        } else {
            Color::White
        })
    }

    /// Whether the player at `i` (0 Black, 1 White) is at the game, of those `online`:
    /// online, and not away in the lobby.
    fn is_at(&self, i: usize, online: &BTreeMap<String, Online>) -> bool {
        !self.away[i] && online.contains_key(&self.names[i])
    }

    /// Whether `name` plays here and is away in the lobby (not shown the board until
    /// they resume).
    fn away_in_lobby(&self, name: &str) -> bool {
        self.side_of(name).is_some_and(|c| self.away[index(c)])
    }

    /// Who hears of this game's moves: its players, then who watches it.
    fn audience(&self, game: u64, online: &BTreeMap<String, Online>) -> Vec<String> {
        let mut names = self.names.to_vec();
        names.extend(
            online
                .iter()
                .filter(|(_, o)| o.watching == Some(game))
                .map(|(n, _)| n.clone()),
        );
        names
    }
}

/// What became of a game a player left (see [`Lobby::left_game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Left {
    /// It goes on, its clocks running: the other player is at it.
    GoesOn,
    /// It is adjourned now, its clocks stopped: neither player is at it.
    AdjournedNow,
    /// It was adjourned already, and stays so (or it is gone).
    StillAdjourned,
}

/// Everything the server holds.
pub(crate) struct Lobby {
    /// The database's thread.
    store: Store,
    /// Where messages go out, in order, each after the writes asked before it.
    outbox: Outbox,
    /// The next game's number.
    next_game: u64,
    /// How long an adjourned game waits for its players before it is abandoned.
    adjourned_for: std::time::Duration,
    /// The lines a table's chat carries in [`TABLE_CHAT_WINDOW`].
    table_chat: usize,
    /// The players online, by name.
    online: BTreeMap<String, Online>,
    /// The open seeks, by number.
    seeks: BTreeMap<u64, Seek>,
    /// The next seek's number.
    next_seek: u64,
    /// The games in play, by their database id.
    games: BTreeMap<u64, Table>,
    /// Where the server is, for the records' Site tag.
    site: String,
    /// The games just ended that their players may play again, by game: one for each
    /// player at most (the last), gone when either leaves or starts another game.
    rematches: BTreeMap<u64, Rematch>,
    /// Wrong invite codes, by address: after a few, an address waits before its next
    /// code is looked at (as at a LAN host's door), so codes cannot be guessed.
    guesses: Guesses,
    /// When each address made its new names, in the last [`NEW_NAMES_WINDOW`].
    new_names: std::collections::HashMap<IpAddr, std::collections::VecDeque<Instant>>,
    /// When (unix seconds) the rated games that changed ratings in the last
    /// [`RATED_PAIR_WINDOW`] ended, by their players' rows (the lower first).
    rated_pairs: std::collections::HashMap<[i64; 2], Vec<u64>>,
    /// The games with a notice of where a player is held back (see
    /// [`PRESENCE_NOTICE_EVERY`]).
    presence_pending: std::collections::BTreeSet<u64>,
    /// When the server last noted in the database that it runs.
    alive_noted: Instant,
    /// The moderators, the mutes in force, the bans ordered since the start.
    moderation: moderation::Moderation,
    /// When the moderators were last read from the database.
    moderators_read: Instant,
}

/// Two players' rows as [`Lobby::rated_pairs`] keys them: the lower first.
fn pair(ids: [i64; 2]) -> [i64; 2] {
    [ids[0].min(ids[1]), ids[0].max(ids[1])]
}

/// Glicko-2's new ratings `after` of two players rated `before`, who had `games` rated
/// games each: an established player's (one with [`PROVISIONAL_GAMES`] or more) against
/// one with `k`, fewer, moves `k` / [`PROVISIONAL_GAMES`] of the way, its deviation and
/// volatility as Glicko-2 gives them.
fn damped(
    before: [Glicko2Rating; 2],
    after: [Glicko2Rating; 2],
    games: [u32; 2],
) -> [Glicko2Rating; 2] {
    let mut damped = after;
    for i in 0..2 {
        let theirs = games[1 - i];
        if games[i] >= PROVISIONAL_GAMES && theirs < PROVISIONAL_GAMES {
            let share = f64::from(theirs) / f64::from(PROVISIONAL_GAMES);
            damped[i].rating = before[i].rating + (after[i].rating - before[i].rating) * share;
        }
    }
    damped
}

/// A sentence saying why a game offered rated would change no rating, if it would not.
fn unrated_note(why: Option<String>) -> String {
    why.map_or(String::new(), |why| {
        format!(" It would be played unrated: {why}.")
    })
}

/// Why a rated game between `names` changes no rating: the words every place says it
/// in (a seek list, a game's start, a challenge, a rematch, a game's end).
fn pair_limit_reached(names: [&str; 2]) -> String {
    format!(
        "{} and {} have played {RATED_PER_PAIR} rated games in 24 hours",
        names[0], names[1]
    )
}

/// The lines said at a table in the last [`TABLE_CHAT_WINDOW`]: when, and by whom.
#[derive(Clone, Debug, Default)]
struct Chat {
    /// Each line's time and speaker, oldest first.
    said: std::collections::VecDeque<(Instant, String)>,
}

/// Why a line is not carried at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ChatFull {
    /// The table carried its `lines` in the window, all who speak together.
    Table,
    /// The speaker said their share of them (see [`speakers_share`]).
    Speaker,
}

/// The lines one speaker may say at a table in a [`TABLE_CHAT_WINDOW`], of the
/// `lines` it carries: a quarter (at least one), so that one flooder cannot take
/// every line and silence the others; a person talking says far fewer.
fn speakers_share(lines: usize) -> usize {
    (lines / 4).max(1)
}

impl Chat {
    /// Whether `speaker` may say a line `now` (counted if so): at most `lines` in any
    /// [`TABLE_CHAT_WINDOW`] at the table, [`speakers_share`] of them each speaker's.
    fn allows(&mut self, speaker: &str, now: Instant, lines: usize) -> Result<(), ChatFull> {
        while self
            .said
            .front()
            .is_some_and(|(said, _)| now.duration_since(*said) >= TABLE_CHAT_WINDOW)
        {
            self.said.pop_front();
        }
        let own = self.said.iter().filter(|(_, n)| n == speaker).count();
        if own >= speakers_share(lines) {
            return Err(ChatFull::Speaker);
        }
        if self.said.len() >= lines {
            return Err(ChatFull::Table);
        }
        self.said.push_back((now, speaker.to_string()));
        Ok(())
    }
}

/// The first [`protocol::LOBBY_LIST`] entries of a list of the lobby.
fn first<T>(mut list: Vec<T>) -> Vec<T> {
    list.truncate(protocol::LOBBY_LIST);
    list
}

/// Black's index in pairs, then White's.
fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Lobby {
    /// A lobby storing through `store` and telling through `outbox`, set up with
    /// `settings`, with the games the server stopped during (or was killed in) taken
    /// back from their stored records: adjourned, their clocks stopped, until both
    /// players are back. Also gives how many games it took back.
    pub(crate) fn open(
        store: Store,
        outbox: Outbox,
        settings: Settings,
        now: Instant,
    ) -> Result<(Lobby, usize), String> {
        let Settings {
            site,
            adjourned_for,
            table_chat,
        } = settings;
        let next_game = store.ask_now(|db| db.next_game())??;
        // The days an adjourned game waits are the server's running days: the time it
        // was down is added to each before they are taken back.
        let started = crate::store::now_unix();
        match store.ask_now(move |db| db.count_downtime(started))?? {
            Some((down, stopped)) => tracing::info!(
                seconds = down,
                since = if stopped {
                    "its stop"
                } else {
                    "its last heartbeat (killed)"
                },
                "the server was down: adjourned games wait that much longer"
            ),
            None => tracing::info!("a new database: no downtime to count"),
        }
        // The rated games of the last day, as the database holds them.
        let since = crate::store::now_unix().saturating_sub(RATED_PAIR_WINDOW.as_secs());
        let mut rated_pairs = std::collections::HashMap::<[i64; 2], Vec<u64>>::new();
        for (ids, ended) in store.ask_now(move |db| db.rated_results_since(since))?? {
            rated_pairs.entry(pair(ids)).or_default().push(ended);
        }
        let unix = crate::store::now_unix();
        let moderation = store.ask_now(move |db| moderation::Moderation::read(db, unix))??;
        let mut lobby = Lobby {
            store,
            outbox,
            next_game,
            adjourned_for,
            table_chat,
            online: BTreeMap::new(),
            seeks: BTreeMap::new(),
            next_seek: 1,
            games: BTreeMap::new(),
            site,
            rematches: BTreeMap::new(),
            guesses: Guesses::default(),
            new_names: std::collections::HashMap::new(),
            rated_pairs,
            presence_pending: std::collections::BTreeSet::new(),
            alive_noted: now,
            moderation,
            moderators_read: now,
        };
        let restored = lobby.restore(now)?;
        Ok((lobby, restored))
    }

    /// Whether `address` may make a new name `now` (fewer than [`NEW_NAMES_PER_WINDOW`]
    /// in the last [`NEW_NAMES_WINDOW`]); if so, one is counted at once, so that logins
    /// sent together cannot all pass (see [`no_name_made`](Self::no_name_made)).
    pub(crate) fn may_make_name(&mut self, address: IpAddr, now: Instant) -> bool {
        let recent = |made: &Instant| now.saturating_duration_since(*made) < NEW_NAMES_WINDOW;
        // Addresses quiet for the window are forgotten, so the map stays small.
        self.new_names.retain(|_, made| {
            made.retain(recent);
            !made.is_empty()
        });
        let made = self.new_names.entry(address).or_default();
        if made.len() >= NEW_NAMES_PER_WINDOW {
            return false;
        }
        made.push_back(now);
        true
    }

    /// The login `address` was let make a name with made none (the name was its own
    /// already, or was refused): the name counted for it is given back.
    pub(crate) fn no_name_made(&mut self, address: IpAddr) {
        if let Some(made) = self.new_names.get_mut(&address) {
            made.pop_back();
        }
    }

    /// The new names counted for `address` in the last [`NEW_NAMES_WINDOW`] (as of the
    /// last count).
    #[cfg(test)]
    pub(crate) fn new_names_counted(&self, address: IpAddr) -> usize {
        self.new_names.get(&address).map_or(0, |made| made.len())
    }

    /// The rated games that changed ratings between the players of rows `ids` in the
    /// last [`RATED_PAIR_WINDOW`].
    fn rated_today(&self, ids: [i64; 2]) -> usize {
        let since = crate::store::now_unix().saturating_sub(RATED_PAIR_WINDOW.as_secs());
        self.rated_pairs
            .get(&pair(ids))
            .map_or(0, |ended| ended.iter().filter(|&&t| t >= since).count())
    }

    /// A rated game between the players of rows `ids` changed ratings, ending at `ended`
    /// (unix seconds): counted, and the pairs quiet for the window forgotten.
    fn count_rated(&mut self, ids: [i64; 2], ended: u64) {
        let since = ended.saturating_sub(RATED_PAIR_WINDOW.as_secs());
        self.rated_pairs.retain(|_, times| {
            times.retain(|&t| t >= since);
            !times.is_empty()
        });
        self.rated_pairs.entry(pair(ids)).or_default().push(ended);
    }

    /// Why `seek`, rated, would be played unrated if `viewer` took it, if it would.
    fn unrated_for(&self, viewer: &str, seek: &Seek) -> Option<String> {
        (seek.by != viewer)
            .then(|| self.unrated_why([seek.by.as_str(), viewer]))
            .flatten()
    }

    /// Why a rated game between `names` (online players) would change no rating if it
    /// started now, if it would not: they had [`RATED_PER_PAIR`] rated games in 24 hours.
    fn unrated_why(&self, names: [&str; 2]) -> Option<String> {
        let ids = names.map(|n| self.online.get(n).map(|o| o.id));
        let [Some(a), Some(b)] = ids else {
            return None;
        };
        (self.rated_today([a, b]) >= RATED_PER_PAIR).then(|| pair_limit_reached(names))
    }

    /// Takes back the games not finished, adjourned: how many.
    fn restore(&mut self, now: Instant) -> Result<usize, String> {
        for stored in self.store.ask_now(|db| db.unfinished())?? {
            let Some(Ok(record)) = crate::pdn::read_games(&stored.pdn).into_iter().next() else {
                tracing::error!(game = stored.id, "a stored game's record does not read");
                continue;
            };
            let mut session = Session::from_record(&record)
                .with_seats(Seats::PEOPLE)
                .with_assist(false);
            // The clocks to the millisecond where the row keeps them (the record's own
            // readings are in tenths).
            if let Some(left) = stored.clocks {
                session = session.with_clock_readings(left);
            }
            let mut session = session.with_recorded_clock(now);
            session.set_paused(true);
            // A game in play when the server was killed (a stop adjourns each) waits from now.
            let since = match stored.adjourned {
                Some(since) => since,
                None => {
                    let since = crate::store::now_unix();
                    let game = stored.id;
                    self.store
                        .ask_now(move |db| db.adjourn(game, Some(since), None))??;
                    since
                }
            };
            let unrated_why = stored
                .pair_limited
                .then(|| pair_limit_reached([&stored.names[0], &stored.names[1]]));
            self.games.insert(
                stored.id as u64,
                Table {
                    session,
                    names: stored.names,
                    ids: stored.ids,
                    ratings: stored.ratings,
                    rated_games: stored.rated_games,
                    rated: stored.rated,
                    unrated_why,
                    clock: stored.clock,
                    control: None,
                    adjourned: Some(since),
                    away: [false; 2],
                    one_back_since: None,
                    held_for: None,
                    chat: Default::default(),
                    presence: Presence::told(Whereabouts::Gone),
                },
            );
        }
        Ok(self.games.len())
    }

    /// The database's thread, for logins.
    pub(crate) fn store(&self) -> Store {
        self.store.clone()
    }

    /// The outbox, to wait for it to be delivered.
    pub(crate) fn outbox(&self) -> Outbox {
        self.outbox.clone()
    }

    /// `name` logs in again while online: the old connection is told and let go (its
    /// game adjourned, to go on at once on the new one).
    pub(crate) fn take_over(&mut self, name: &str) {
        if self.online.contains_key(name) {
            let reason = "you logged in on another connection".to_string();
            self.send(name, ServerMessage::Refused { reason });
            self.gone(name);
        }
    }

    /// `name` (as the database holds them: `player`) is online on connection `conn`.
    pub(crate) fn enter(
        &mut self,
        name: &str,
        player: &super::db::PlayerRow,
        (conn, address): (u64, IpAddr),
        out: mpsc::Sender<ServerMessage>,
    ) {
        let now = Instant::now();
        self.online.insert(
            name.to_string(),
            Online {
                conn,
                address,
                id: player.id,
                rating: player.rating,
                rated_games: player.rated_games,
                out,
                game: None,
                watching: None,
                board: false,
            },
        );
        let mine = self
            .games
            .iter()
            .find(|(_, t)| t.names.iter().any(|n| n == name))
            .map(|(game, t)| (*game, t.names.clone()));
        let Some((game, names)) = mine else {
            return;
        };
        if let Some(online) = self.online.get_mut(name) {
            online.game = Some(game);
        }
        let other = if names[0] == name {
            &names[1]
        } else {
            &names[0]
        };
        let other = other.clone();
        if self.games.get(&game).is_some_and(|t| t.adjourned.is_none()) {
            return self.back_in_play(game, name, now);
        }
        if !self.resume_if_both_back(game) {
            self.waits_for_other(game, name, &other, now);
        }
    }

    /// `game` goes on if it is adjourned and both its players are at it (online, and
    /// not away in the lobby): its clocks run again, both are told. Whether it did.
    fn resume_if_both_back(&mut self, game: u64) -> bool {
        let Some(table) = self.games.get(&game) else {
            return false;
        };
        if table.adjourned.is_none() || !self.at_table(table, 0) || !self.at_table(table, 1) {
            return false;
        }
        self.go_on(game);
        let Some(table) = self.games.get(&game) else {
            return false;
        };
        tracing::info!(game, "resumed");
        let names = table.names.clone();
        let messages = [Color::Black, Color::White].map(|c| table.started(game, c));
        for (n, message) in names.iter().zip(messages) {
            self.send(n, message);
        }
        self.tell_table(game);
        true
    }

    /// Adjourned `game` goes on, its clocks running (stored so), its wait for one player
    /// back forgotten, so that a later adjournment waits afresh. Its players are told by
    /// the caller.
    fn go_on(&mut self, game: u64) {
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        table.adjourned = None;
        table.one_back_since = None;
        table.held_for = None;
        table.session.set_paused(false);
        self.store_then_tell(Some(game), move |db| db.adjourn(game as i64, None, None));
        self.presence_told(game);
    }

    /// `name` is back at `game`, which went on without them (its clocks running): their
    /// board is shown the game as it stands, and the others are told (see
    /// [`presence_changed`](Self::presence_changed)).
    fn back_in_play(&mut self, game: u64, name: &str, now: Instant) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let Some(color) = table.side_of(name) else {
            return;
        };
        let started = table.started(game, color);
        self.send(name, started);
        self.tell_one(game, name);
        self.presence_changed(game, index(color), now);
    }

    /// Whether the player of `table` at `i` (0 Black, 1 White) is at the game: online,
    /// and not away in the lobby.
    fn at_table(&self, table: &Table, i: usize) -> bool {
        table.is_at(i, &self.online)
    }

    /// Where the player of `table` at `i` (0 Black, 1 White) is.
    fn whereabouts(&self, table: &Table, i: usize) -> Whereabouts {
        if !self.online.contains_key(&table.names[i]) {
            Whereabouts::Gone
        } else if table.away[i] {
            Whereabouts::Lobby
        } else {
            Whereabouts::At
        }
    }

    /// The player of `game` at `i` (0 Black, 1 White) went away from it (to the lobby,
    /// or gone) or came back: the other player is told where they are now, and the
    /// boards at the table but theirs the table (if they are at it or away now where
    /// they were not). Nothing is told if the others were last told the same (for an
    /// adjourned game, in the lobby and gone are the same: away); and if that player's
    /// last notice of this kind went within [`PRESENCE_NOTICE_EVERY`], not yet:
    /// [`tick`](Self::tick) tells where they are once the interval has passed (nothing,
    /// if back where they were last told to be).
    fn presence_changed(&mut self, game: u64, i: usize, now: Instant) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let (told, here) = (table.presence.told[i], self.whereabouts(table, i));
        let adjourned = table.adjourned.is_some();
        let away = |w: Whereabouts| w != Whereabouts::At;
        if told == here || (adjourned && away(told) && away(here)) {
            return;
        }
        let last = table.presence.last[i][here as usize];
        if last.is_some_and(|t| now.saturating_duration_since(t) < PRESENCE_NOTICE_EVERY) {
            self.presence_pending.insert(game);
            return;
        }
        let (name, other) = (&table.names[i], &table.names[1 - i]);
        let minutes = ONE_BACK_WAIT.as_secs() / 60;
        // Short: a lobby's or a board's status is one line of 80 columns.
        let text = match (adjourned, here) {
            (false, Whereabouts::At) => format!("{name} is back at game {game}."),
            (false, Whereabouts::Lobby) => {
                format!("{name} went to the lobby: game {game} goes on, the clocks running.")
            }
            (false, Whereabouts::Gone) => format!(
                "{name} left: game {game} goes on; if {name}'s time runs out, {name} loses."
            ),
            (true, Whereabouts::At) => format!(
                "{name} is back at game {game}: resume it within {minutes} minutes, or your clock \
                 runs."
            ),
            (true, _) => {
                format!("{name} left game {game}: it stays adjourned, its clocks stopped.")
            }
        };
        let (name, other) = (name.clone(), other.clone());
        if let Some(table) = self.games.get_mut(&game) {
            table.presence.told[i] = here;
            table.presence.last[i][here as usize] = Some(now);
        }
        self.send(&other, ServerMessage::Info { text });
        if away(told) != away(here) {
            self.tell_table_but(game, Some(&name));
        }
    }

    /// Tells the notices of where players are held back (see [`presence_changed`])
    /// that may go at `now`: each where the player is now.
    ///
    /// [`presence_changed`]: Self::presence_changed
    fn tell_pending_presence(&mut self, now: Instant) {
        for game in std::mem::take(&mut self.presence_pending) {
            for i in 0..2 {
                // Held back again if its interval has not passed.
                self.presence_changed(game, i, now);
            }
        }
    }

    /// The others at `game` have been told how its players stand (the game adjourned or
    /// going on): no notice of either player's going away or coming back is owed.
    fn presence_told(&mut self, game: u64) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let here = [0, 1].map(|i| self.whereabouts(table, i));
        if let Some(table) = self.games.get_mut(&game) {
            table.presence.told = here;
        }
    }

    /// `game` is adjourned now: its clocks stop until both its players are back
    /// (stored, and its boards told).
    fn adjourn_now(&mut self, game: u64) {
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let since = crate::store::now_unix();
        table.adjourned = Some(since);
        table.session.set_paused(true);
        // Paused, the clocks' readings hold the time used since the last move.
        let clocks = table.clocks();
        self.store_then_tell(Some(game), move |db| {
            db.adjourn(game as i64, Some(since), clocks)
        });
        self.presence_told(game);
        self.tell_table(game);
    }

    /// `name` is back at their adjourned `game` while `other` keeps it adjourned (from
    /// the lobby, or gone): `name` is told who it waits for, and `other` (if online) that
    /// `name` is back.
    fn waits_for_other(&mut self, game: u64, name: &str, other: &str, now: Instant) {
        let Some(color) = self.games.get(&game).and_then(|t| t.side_of(name)) else {
            return;
        };
        let minutes = ONE_BACK_WAIT.as_secs() / 60;
        let text = format!(
            "Game {game} waits for {other}: in {minutes} minutes it goes on, {other}'s clock \
             running."
        );
        self.send(name, ServerMessage::Info { text });
        self.tell_one(game, name);
        self.presence_changed(game, index(color), now);
    }

    /// `name` leaves the board of the game they play for the lobby. The game is
    /// adjourned, its clocks stopped, only once both its players have left it (each for
    /// the lobby, or gone): while the other player is at it, it goes on, the clocks
    /// running, so that leaving never stops one's own clock. Refused to a spectator (who
    /// cannot adjourn someone else's game) and to a player with no game in play.
    fn adjourn(&mut self, name: &str, now: Instant) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let watching = online.watching;
        let Some((game, color)) = self.seat_of(name) else {
            let reason = match watching {
                Some(n) => format!("you watch game {n}: only its players adjourn it"),
                None => "you are not playing a game: there is none to adjourn".to_string(),
            };
            return self.reject(name, reason);
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let other = table.names[index(!color)].clone();
        if table.away[index(color)] {
            return self.reject(
                name,
                format!("you left game {game} already: resume goes back to it"),
            );
        }
        table.away[index(color)] = true;
        let my_move = table.session.position().turn() == color;
        match self.left_game(game, index(color), now) {
            Left::GoesOn => {
                tracing::info!(game, name, "left for the lobby, the game going on");
                let clock = super::protocol::clock_while_away(my_move);
                let text =
                    format!("Game {game} goes on, {clock}: resume it (Enter on it) to go back.");
                return self.send(name, ServerMessage::Info { text });
            }
            Left::AdjournedNow => {
                let text =
                    format!("{name} left game {game} too: it is adjourned, its clocks stopped.");
                self.send(&other, ServerMessage::Info { text });
            }
            Left::StillAdjourned => {}
        }
        tracing::info!(game, name, "adjourned in the lobby");
        let text = format!(
            "Game {game} is adjourned, its clocks stopped: resume it (Enter on it) to go on."
        );
        self.send(name, ServerMessage::Info { text });
    }

    /// `name` goes back to their game: it goes on if the other player is at it too;
    /// else `name`'s board waits for them (and they are told). A game in play is only
    /// shown again to `name`'s board.
    fn resume(&mut self, name: &str, now: Instant) {
        let Some((game, color)) = self.seat_of(name) else {
            return self.reject(name, "you have no game to resume");
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let was_away = std::mem::replace(&mut table.away[index(color)], false);
        let other = table.names[index(!color)].clone();
        if table.adjourned.is_none() {
            if was_away {
                return self.back_in_play(game, name, now);
            }
            // Nothing changed for the others: the asker alone is told.
            return self.tell_one(game, name);
        }
        if !self.resume_if_both_back(game) {
            self.waits_for_other(game, name, &other, now);
        }
    }

    /// Whether `name` is online on connection `conn` still (not let go).
    pub(crate) fn connected(&self, name: &str, conn: u64) -> bool {
        self.online.get(name).is_some_and(|o| o.conn == conn)
    }

    /// `name`'s connection `conn` broke the protocol: told why, and let go.
    pub(crate) fn refuse(&mut self, name: &str, conn: u64, reason: String) {
        if self.connected(name, conn) {
            self.send(name, ServerMessage::Refused { reason });
            self.leave(name, conn);
        }
    }

    /// The server stops at `now`: every game in play is adjourned, its clocks stored as
    /// they stand (so that the next start gives the player to move no time back), and
    /// everyone is told, and let go. The games are taken back adjourned at the next
    /// start.
    pub(crate) fn stop_all(&mut self, now: Instant) {
        // The clocks read `now` (a flag fallen by then ends its game).
        self.tick(now);
        let in_play: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, t)| t.adjourned.is_none())
            .map(|(game, _)| *game)
            .collect();
        for game in in_play {
            self.adjourn_now(game);
        }
        // The time until the next start does not count against the adjourned games.
        let stopped = crate::store::now_unix();
        self.store_then_tell(None, move |db| db.note_alive(stopped, true));
        let reason = "the server is stopping: a game in play is adjourned and goes on when the \
                      server is back"
            .to_string();
        let names: Vec<String> = self.online.keys().cloned().collect();
        for name in names {
            let reason = reason.clone();
            self.send(&name, ServerMessage::Refused { reason });
        }
        self.online.clear();
        self.seeks.clear();
    }

    /// `name`'s connection `conn` closed: they are gone (see [`gone`](Self::gone)).
    pub(crate) fn leave(&mut self, name: &str, conn: u64) {
        if self.online.get(name).is_some_and(|o| o.conn == conn) {
            self.gone(name);
        }
    }

    /// `name` is gone: their seeks go. A game they play goes on, the clocks running, while
    /// the other player is at it (so a player cannot stop their clock, or escape a lost
    /// game, by cutting the line: their time runs out and they lose on time); once
    /// neither is at it, it is adjourned, its clocks stopped, until both are back.
    fn gone(&mut self, name: &str) {
        let game = self.online.remove(name).and_then(|o| o.game);
        self.drop_seeks(name, "left the server", true);
        self.drop_rematch(name, &format!("{name} left: the rematch offer lapses."));
        let Some(game) = game else {
            return;
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        // Logging in again brings them back to it, whether they left it from the
        // board or from the lobby.
        let Some(color) = table.side_of(name) else {
            return;
        };
        table.away[index(color)] = false;
        let other = table.names[index(!color)].clone();
        // Timed as it is heard: a connection's end comes with no request's time.
        let now = Instant::now();
        if self.left_game(game, index(color), now) == Left::AdjournedNow {
            let text = format!("{name} left: game {game} is adjourned, its clocks stopped.");
            self.send(&other, ServerMessage::Info { text });
        }
    }

    /// The player of `game` at `i` (0 Black, 1 White) has left it (for the lobby, or
    /// gone): a game in play goes on while the other player is at it, and is adjourned
    /// once neither is; otherwise the other is told where the player is now (see
    /// [`presence_changed`](Self::presence_changed)). What became of the game; the
    /// caller tells the players what is theirs to hear.
    fn left_game(&mut self, game: u64, i: usize, now: Instant) -> Left {
        let Some(table) = self.games.get(&game) else {
            return Left::StillAdjourned;
        };
        let in_play = table.adjourned.is_none();
        if in_play && !self.at_table(table, 1 - i) {
            self.adjourn_now(game);
            return Left::AdjournedNow;
        }
        // Back at an adjourned game and gone again: the other, told they were back,
        // hears it.
        self.presence_changed(game, i, now);
        if in_play {
            Left::GoesOn
        } else {
            Left::StillAdjourned
        }
    }

    /// Posts `message` for `name`, if online (a client whose queue is full when it
    /// comes is let go: see `outbox::deliver`).
    fn send(&mut self, name: &str, message: ServerMessage) {
        if let Some(to) = self.recipient(name) {
            self.outbox.post(Post::Message { to, message });
        }
    }

    /// `name`'s connection, if online.
    fn recipient(&self, name: &str) -> Option<Recipient> {
        self.online.get(name).map(|o| Recipient {
            name: name.to_string(),
            conn: o.conn,
            out: o.out.clone(),
        })
    }

    /// Asks the database's thread to store `write` (of `game`, if one): the messages
    /// posted after it wait until it is on the disk.
    fn store_then_tell<F>(&mut self, game: Option<u64>, write: F)
    where
        F: FnOnce(&mut super::db::Db) -> Result<(), String> + Send + 'static,
    {
        let stored = self.store.ask(write);
        self.outbox.post(Post::Stored { stored, game });
    }

    /// Storing `game` failed: it stops, and its players are told (the postman does not
    /// tell what was not stored).
    pub(crate) fn halt(&mut self, game: u64) {
        let Some(table) = self.games.remove(&game) else {
            return;
        };
        for n in &table.names {
            self.reject(n, "the server cannot store moves now: the game is stopped");
            if let Some(online) = self.online.get_mut(n) {
                online.game = None;
            }
        }
    }

    /// A refusal of a request, to `name`.
    fn reject(&mut self, name: &str, reason: impl Into<String>) {
        self.send(
            name,
            ServerMessage::Rejected {
                reason: reason.into(),
            },
        );
    }

    /// `name` asks `message`.
    pub(crate) fn handle(&mut self, name: &str, message: ClientMessage, now: Instant) {
        self.tick(now);
        match message {
            ClientMessage::Login { .. } => self.reject(name, "already logged in"),
            ClientMessage::Ping => self.send(name, ServerMessage::Pong),
            ClientMessage::Who => {
                let text = self.who();
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Seeks => {
                let text = self.seeks_text(name);
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Games => {
                let text = self.games_text(name);
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Watch { number } => self.watch(name, number),
            ClientMessage::Export { after } => self.export(name, after),
            ClientMessage::Player { name: who } => self.player(name, who),
            ClientMessage::Seek {
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                self.seek(name, (&clock, rated, terms), None, None);
            }
            ClientMessage::Challenge {
                name: whom,
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                self.challenge(name, &whom, (&clock, rated, terms));
            }
            ClientMessage::Invite {
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                let code = crate::net::new_code();
                self.seek(name, (&clock, rated, terms), None, Some(code));
            }
            ClientMessage::Join { code } => self.join(name, &code, now),
            ClientMessage::Accept { number } => self.accept(name, number, now),
            ClientMessage::Cancel { number } => self.cancel(name, number),
            ClientMessage::Play { text } => self.play(name, &text),
            ClientMessage::Resign => self.resign(name),
            ClientMessage::Draw => self.draw(name),
            ClientMessage::Say { text } => self.say(name, &text, now),
            ClientMessage::Rematch => self.rematch(name, now),
            ClientMessage::Decline => self.decline(name),
            ClientMessage::Board => self.board(name),
            ClientMessage::Unwatch => {
                if let Some(online) = self.online.get_mut(name) {
                    online.watching = None;
                }
            }
            ClientMessage::Adjourn => self.adjourn(name, now),
            ClientMessage::Resume => self.resume(name, now),
            ClientMessage::Moderate { order } => self.moderate(name, order),
            ClientMessage::Lobby => {
                let message = self.lobby(name);
                self.send(name, message);
            }
        }
    }

    /// `name`'s client shows a board: told its table from now on, its game now.
    fn board(&mut self, name: &str) {
        let Some(online) = self.online.get_mut(name) else {
            return;
        };
        online.board = true;
        let Some(game) = online.game.or(online.watching) else {
            return;
        };
        // Told to the asker alone: a spectator asking again and again must not make
        // the server tell the whole table each time.
        self.tell_one(game, name);
    }

    /// The message telling `name` the game `game` at `table` as it stands.
    fn table_message(&self, game: u64, table: &Table, name: &str) -> ServerMessage {
        let side = table.side_of(name);
        // A player's board is told whether the other is at the game; a spectator's,
        // whether both are.
        let others_there = (0..2)
            .filter(|&i| side.map(index) != Some(i))
            .all(|i| self.at_table(table, i));
        let spectators = self
            .online
            .values()
            .filter(|o| o.watching == Some(game))
            .count();
        let mut record = table.session.record(&crate::store::today());
        record.set_tag("Event", "checkers server");
        record.set_tag("Site", &self.site);
        let facts = crate::net::table::TableFacts {
            undo_asked: None,
            player_connected: table.adjourned.is_none() && others_there,
            spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
            joiner_side: side.unwrap_or(Color::Black),
        };
        ServerMessage::Table {
            game,
            side: side.map(Into::into),
            state: crate::net::table::game_state(&table.session, &record, facts),
        }
    }

    /// Tells the board clients at `game`'s table (its players, who watches it) the
    /// game as it stands.
    fn tell_table(&mut self, game: u64) {
        self.tell_table_but(game, None);
    }

    /// Tells `name`'s board (if their client shows one, and they are not away in the
    /// lobby) `game` as it stands: what they asked changed nothing for the others.
    fn tell_one(&mut self, game: u64, name: &str) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        if !table.away_in_lobby(name) && self.online.get(name).is_some_and(|o| o.board) {
            let message = self.table_message(game, table, name);
            self.send(name, message);
        }
    }

    /// Tells the board clients at `game`'s table but `but`'s the game as it stands.
    fn tell_table_but(&mut self, game: u64, but: Option<&str>) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let told: Vec<(String, ServerMessage)> = table
            .audience(game, &self.online)
            .into_iter()
            .filter(|n| Some(n.as_str()) != but)
            .filter(|n| !table.away_in_lobby(n) && self.online.get(n).is_some_and(|o| o.board))
            .map(|n| {
                let message = self.table_message(game, table, &n);
                (n, message)
            })
            .collect();
        for (n, message) in told {
            self.send(&n, message);
        }
    }

    /// The lobby as lists, as `viewer` sees it.
    fn lobby(&self, viewer: &str) -> ServerMessage {
        let rating = |name: &str| {
            self.online
                .get(name)
                .map_or(0, |o| o.rating.rating.round().max(0.0) as u32)
        };
        let players: Vec<protocol::LobbyPlayer> = self
            .online
            .iter()
            .map(|(name, online)| protocol::LobbyPlayer {
                name: name.clone(),
                rating: rating(name),
                playing: online.game,
            })
            .collect();
        let seeks: Vec<protocol::LobbySeek> = self
            .seeks
            .iter()
            .filter(|(_, s)| s.shown_to(viewer))
            .map(|(number, seek)| protocol::LobbySeek {
                number: *number,
                by: seek.by.clone(),
                rating: rating(&seek.by),
                clock: seek.clock_text.clone(),
                // Casual for a viewer it would change no rating for.
                rated: seek.rated && self.unrated_for(viewer, seek).is_none(),
                side: seek.terms.side.map(Into::into),
                ballot: seek.terms.ballot,
                only: seek.only.clone(),
            })
            .collect();
        let games: Vec<protocol::LobbyGame> = self
            .listed_games(viewer)
            .into_iter()
            .map(|(number, table)| protocol::LobbyGame {
                number: *number,
                black: table.names[0].clone(),
                white: table.names[1].clone(),
                clock: table.clock.clone(),
                rated: table.rated,
                moves: table.session.game().moves().len(),
                adjourned: table.adjourned.is_some(),
            })
            .collect();
        let cut = |n: usize| n.saturating_sub(protocol::LOBBY_LIST);
        let more = [cut(players.len()), cut(seeks.len()), cut(games.len())];
        ServerMessage::Lobby {
            players: first(players),
            seeks: first(seeks),
            games: first(games),
            more,
        }
    }

    /// `name` gives an invite `code`. Wrong codes are counted by the player's address:
    /// three are free, then the address waits, twice as long after each, before its next
    /// code is looked at (even the right one).
    fn join(&mut self, name: &str, code: &str, now: Instant) {
        let Some(address) = self.online.get(name).map(|o| o.address) else {
            return;
        };
        if let Some(wait) = self.guesses.wait_left(address, now) {
            let reason = format!(
                "too many wrong codes from your address: the next is looked at in {}",
                crate::net::guesses::wait_text(wait)
            );
            return self.reject(name, &reason);
        }
        let code = crate::net::normalize_code(code);
        let found = self
            .seeks
            .iter()
            .find(|(_, s)| s.code.as_deref() == Some(code.as_str()))
            .map(|(number, _)| *number);
        match found {
            // One's own code is no guess: it forgives none of the address's wrong ones.
            Some(number) if self.seeks.get(&number).is_some_and(|s| s.by == name) => {
                self.reject(
                    name,
                    "that private table is your own: give its code to a friend",
                );
            }
            Some(number) => {
                self.guesses.right(address);
                self.take_seek(name, number, now);
            }
            None => {
                let wrong = self.guesses.wrong(address, now);
                tracing::warn!(name, %address, tries = wrong.tries, "a wrong invite code");
                let reason = match wrong.wait {
                    Some(wait) => format!(
                        "no private table has that code (the next code from your address is \
                         looked at in {})",
                        crate::net::guesses::wait_text(wait)
                    ),
                    None => "no private table has that code".to_string(),
                };
                self.reject(name, &reason);
            }
        }
    }

    /// A player's rating, shown rounded (of players online, who alone have seeks).
    fn rating_of(&self, name: &str) -> String {
        match self.online.get(name) {
            Some(online) => format!("{:.0}", online.rating.rating),
            None => "?".to_string(),
        }
    }

    /// The players online.
    fn who(&self) -> String {
        let mut lines = vec![format!("{} online:", self.online.len())];
        for (name, online) in self.online.iter().take(MOST_LISTED) {
            let doing = match online.game {
                Some(game) => format!("playing game {game}"),
                None => "in the lobby".to_string(),
            };
            lines.push(format!("  {name} ({}) {doing}", self.rating_of(name)));
        }
        let more = self.online.len().saturating_sub(MOST_LISTED);
        if more > 0 {
            lines.push(format!("  ... and {more} more"));
        }
        lines.join("\n")
    }

    /// The open seeks.
    fn seeks_text(&self, viewer: &str) -> String {
        let shown: Vec<_> = self
            .seeks
            .iter()
            .filter(|(_, s)| s.shown_to(viewer))
            .collect();
        if shown.is_empty() {
            return "No open seeks (seek 5+3 rated posts one).".to_string();
        }
        let mut lines = vec!["Open seeks (accept N takes one):".to_string()];
        // A crowd's seeks must not make a list longer than a client reads in one line.
        let more = shown.len().saturating_sub(MOST_SEEKS_LISTED);
        for (n, seek) in shown.into_iter().take(MOST_SEEKS_LISTED) {
            let kind = match seek.rated.then(|| self.unrated_for(viewer, seek)).flatten() {
                Some(why) => format!("rated (unrated for you: {why})"),
                None if seek.rated => "rated".to_string(),
                None => "casual".to_string(),
            };
            let to = seek
                .only
                .as_ref()
                .map_or(String::new(), |o| format!(", a challenge to {o}"));
            lines.push(format!(
                "  {n}: {} ({}) {} {kind}{}{to}",
                seek.by,
                self.rating_of(&seek.by),
                seek.clock_text,
                seek.terms.text(&seek.by)
            ));
        }
        if more > 0 {
            lines.push(format!("  ... and {more} more (newer) seeks"));
        }
        lines.join("\n")
    }

    /// The games in play.
    fn games_text(&self, viewer: &str) -> String {
        if self.games.is_empty() {
            return "No games in play.".to_string();
        }
        let mut lines = vec!["Games in play:".to_string()];
        for (n, table) in self.listed_games(viewer).into_iter().take(MOST_LISTED) {
            let kind = if table.rated { "rated" } else { "casual" };
            let waiting = if table.adjourned.is_some() {
                ", adjourned"
            } else {
                ""
            };
            lines.push(format!(
                "  {n}: {} - {}, {} {kind}, {} moves played{waiting}",
                table.names[0],
                table.names[1],
                table.clock,
                table.session.game().moves().len()
            ));
        }
        let more = self.games.len().saturating_sub(MOST_LISTED);
        if more > 0 {
            lines.push(format!("  ... and {more} more"));
        }
        lines.join("\n")
    }

    /// The games as lists show them to `viewer`: their own first, then those in play,
    /// then the adjourned, the newest first in each, so that games left waiting (up to
    /// the days an adjourned game is kept) cannot push the games in play off a list.
    fn listed_games(&self, viewer: &str) -> Vec<(&u64, &Table)> {
        let mut games: Vec<(&u64, &Table)> = self.games.iter().collect();
        games.sort_by_key(|(number, table)| {
            (
                !table.names.iter().any(|n| n == viewer),
                table.adjourned.is_some(),
                std::cmp::Reverse(**number),
            )
        });
        games
    }

    /// Tells `name` a player's rating and record, as the database holds them.
    fn player(&mut self, name: &str, who: String) {
        let Some(to) = self.recipient(name) else {
            return;
        };
        let online = if self.online.contains_key(&who) {
            "; online"
        } else {
            ""
        };
        let answer = self.store.ask(move |db| {
            let text = match db.player(&who) {
                Ok(Some(p)) => {
                    let [won, lost, drawn, abandoned] = db.record(p.id).unwrap_or_default();
                    format!(
                        "{who}: rating {:.0} (deviation {:.0}); {won} won, {lost} lost, \
                         {drawn} drawn, {abandoned} abandoned{online}",
                        p.rating.rating, p.rating.deviation,
                    )
                }
                Ok(None) => format!("No player is called {who} here."),
                Err(e) => e,
            };
            ServerMessage::Info { text }
        });
        self.outbox.post(Post::Answer { to, answer });
    }

    /// `name` posts a seek: its clock, whether rated, its terms.
    fn seek(
        &mut self,
        name: &str,
        (clock, rated, terms): (&str, bool, Terms),
        only: Option<String>,
        code: Option<String>,
    ) {
        // Kept and shown as parsed: the spaces and line breaks the parser skips are
        // not carried into others' lists.
        let clock = clock.trim();
        let control = match clock.parse::<TimeControl>() {
            Ok(control) => control,
            Err(e) => {
                return self.reject(name, format!("{clock}: {}", crate::text::error_chain(&e)));
            }
        };
        if self.online.get(name).is_some_and(|o| o.game.is_some()) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if self.seeks.values().filter(|s| s.by == name).count() >= 3 {
            return self.reject(name, "you have three seeks open already");
        }
        let number = self.next_seek;
        self.next_seek += 1;
        self.seeks.insert(
            number,
            Seek {
                by: name.to_string(),
                clock: control,
                clock_text: clock.to_string(),
                rated,
                only: only.clone(),
                code: code.clone(),
                terms,
            },
        );
        let kind = if rated { "rated" } else { "casual" };
        let yours = terms.text("you");
        let text = match (&only, &code) {
            (Some(whom), _) => {
                let unrated = unrated_note(rated.then(|| self.unrated_why([name, whom])).flatten());
                // Taken as the challenged player's client takes a seek: the full
                // screen's lobby by Enter on it, plain mode by typing accept.
                let taking = if self.on_board(whom) {
                    "Enter on it in Open seeks takes it, x declines it".to_string()
                } else {
                    format!("accept {number} takes it, decline {number} declines it")
                };
                let told = format!(
                    "{name} ({}) challenges you to a {clock} {kind} game{}: {taking}.{unrated}",
                    self.rating_of(name),
                    terms.text(name)
                );
                self.send(whom, ServerMessage::Info { text: told });
                let withdraw = self.withdrawing(name, number);
                format!(
                    "Challenge {number} sent to {whom}: {clock} {kind}{yours} ({withdraw}).{unrated}"
                )
            }
            (None, Some(code)) => format!(
                "Private table {number}: {clock} {kind}{yours}. Give your friend its code: join \
                 {code}"
            ),
            (None, None) => {
                let withdraw = self.withdrawing(name, number);
                format!(
                    "Seek {number} posted: {clock} {kind}{yours}. Waiting for someone to accept \
                     it ({withdraw})."
                )
            }
        };
        self.send(name, ServerMessage::Info { text });
    }

    /// Whether `name`'s client shows the full screen's lobby (else plain mode), so that
    /// what they are told names the keys they have.
    fn on_board(&self, name: &str) -> bool {
        self.online.get(name).is_some_and(|o| o.board)
    }

    /// How `name` withdraws their seek `number`, in their client's words.
    fn withdrawing(&self, name: &str, number: u64) -> String {
        if self.on_board(name) {
            "x on it in Open seeks withdraws it".to_string()
        } else {
            format!("cancel {number} withdraws it")
        }
    }

    /// `name` challenges `whom` to a game of `clock`, rated or not, on `terms`.
    fn challenge(&mut self, name: &str, whom: &str, (clock, rated, terms): (&str, bool, Terms)) {
        if whom == name {
            return self.reject(name, "you cannot challenge yourself");
        }
        if !self.online.contains_key(whom) {
            return self.reject(name, format!("{whom} is not online (who lists who is)"));
        }
        self.seek(name, (clock, rated, terms), Some(whom.to_string()), None);
    }

    /// `name`'s seeks go (and, if `to_them`, the challenges made to them), because they
    /// `did` something (`left the server`): each challenge's other player is told, so
    /// that nobody waits on an offer that is gone.
    fn drop_seeks(&mut self, name: &str, did: &str, to_them: bool) {
        let dropped: Vec<u64> = self
            .seeks
            .iter()
            .filter(|(_, s)| s.by == name || (to_them && s.only.as_deref() == Some(name)))
            .map(|(number, _)| *number)
            .collect();
        for number in dropped {
            let Some(seek) = self.seeks.remove(&number) else {
                continue;
            };
            let Some(whom) = seek.only else {
                continue;
            };
            let (told, text) = if seek.by == name {
                (
                    whom,
                    format!("{name} {did}: challenge {number} is withdrawn."),
                )
            } else {
                (
                    seek.by,
                    format!("{name} {did}: your challenge {number} to {name} is withdrawn."),
                )
            };
            self.send(&told, ServerMessage::Info { text });
        }
    }

    /// `name` accepts seek `number` (one shown to them): the game starts.
    fn accept(&mut self, name: &str, number: u64, now: Instant) {
        match self.seeks.get(&number) {
            Some(seek) if seek.shown_to(name) => self.take_seek(name, number, now),
            _ => self.reject(name, format!("no open seek {number} (seeks lists them)")),
        }
    }

    /// `name` withdraws their seek `number`, or declines the challenge `number` made
    /// to them; a challenge's other player is told either way, so that neither waits
    /// on an offer that is gone.
    fn cancel(&mut self, name: &str, number: u64) {
        let Some(seek) = self.seeks.get(&number) else {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        };
        let mine = seek.by == name;
        if !mine && seek.only.as_deref() != Some(name) {
            return self.reject(
                name,
                format!("seek {number} is neither yours nor a challenge to you"),
            );
        }
        let Some(seek) = self.seeks.remove(&number) else {
            return;
        };
        let (told, other) = match (&seek.only, &seek.code, mine) {
            (Some(whom), _, true) => (
                format!("You withdrew challenge {number} to {whom}."),
                Some((whom.clone(), format!("{name} withdrew challenge {number}."))),
            ),
            (_, Some(_), true) => (format!("Private table {number} closed."), None),
            (_, _, true) => (format!("Seek {number} withdrawn."), None),
            (_, _, false) => (
                format!("You declined {}'s challenge {number}.", seek.by),
                Some((
                    seek.by.clone(),
                    format!("{name} declined your challenge {number}."),
                )),
            ),
        };
        tracing::info!(number, by = %seek.by, "seek withdrawn or declined");
        if let Some((whom, text)) = other {
            self.send(&whom, ServerMessage::Info { text });
        }
        self.send(name, ServerMessage::Info { text: told });
    }

    /// `name` takes seek `number`: the game starts.
    fn take_seek(&mut self, name: &str, number: u64, now: Instant) {
        let Some(seek) = self.seeks.get(&number) else {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        };
        if seek.only.as_deref().is_some_and(|o| o != name) {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        }
        if seek.by == name {
            return self.reject(name, "that seek is your own");
        }
        let busy =
            |lobby: &Lobby, who: &str| lobby.online.get(who).is_none_or(|o| o.game.is_some());
        if busy(self, name) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if busy(self, &seek.by) {
            return self.reject(name, format!("{} is playing a game now", seek.by));
        }
        let Some(seek) = self.seeks.remove(&number) else {
            return;
        };
        // The seeker's side if asked, else by lot; a ballot drawn from the deck's
        // crossboard ballots (as `--ballot random` draws one).
        let mut coin = [0u8; 9];
        let _ = getrandom::fill(&mut coin);
        let seeker = seek.terms.side.unwrap_or(if coin[0] & 1 == 0 {
            Color::Black
        } else {
            Color::White
        });
        let names = if seeker == Color::Black {
            [seek.by.clone(), name.to_string()]
        } else {
            [name.to_string(), seek.by.clone()]
        };
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&coin[1..]);
        let opening = seek
            .terms
            .ballot
            .then(|| crate::session::random_ballot(u64::from_le_bytes(seed), false));
        self.start_game(
            names,
            (seek.clock, seek.clock_text, seek.rated),
            opening,
            now,
        );
    }

    /// A game starts between `names` (Black, White) with `clock` (its control, as
    /// given) and rated or not, from `opening` if one: stored, then both told. A rated
    /// game between two players who had [`RATED_PER_PAIR`] rated games in 24 hours is played
    /// unrated, and both are told so.
    fn start_game(
        &mut self,
        names: [String; 2],
        (control, clock_text, rated): (TimeControl, String, bool),
        opening: Option<crate::engine::Opening>,
        now: Instant,
    ) {
        let ids = names
            .clone()
            .map(|n| self.online.get(&n).map_or(0, |o| o.id));
        let ratings = names.clone().map(|n| {
            self.online
                .get(&n)
                .map_or_else(Glicko2Rating::new, |o| o.rating)
        });
        let rated_games = names
            .clone()
            .map(|n| self.online.get(&n).map_or(0, |o| o.rated_games));
        let unrated_why = rated
            .then(|| self.unrated_why([&names[0], &names[1]]))
            .flatten();
        let rated = rated && unrated_why.is_none();
        let mut session = Session::new(Game::new());
        if let Some(opening) = opening {
            session = session.with_ballot(opening);
        }
        let session = session
            .with_seats(Seats::PEOPLE)
            .with_assist(false)
            .with_names(crate::pdn::Players {
                black: Some(names[0].clone()),
                white: Some(names[1].clone()),
            })
            .with_clock(control, now);
        let fen = session.position().to_string();
        let table = Table {
            session,
            names: names.clone(),
            ids,
            ratings,
            rated_games,
            rated,
            unrated_why,
            clock: clock_text.clone(),
            control: Some(control),
            adjourned: None,
            away: [false; 2],
            one_back_since: None,
            held_for: None,
            chat: Default::default(),
            presence: Presence::told(Whereabouts::At),
        };
        let game = self.next_game;
        self.next_game += 1;
        let (clock, pdn, clocks) = (clock_text, table.pdn(&self.site), table.clocks());
        let rated_as = match (rated, table.unrated_why.is_some()) {
            (true, _) => RatedAs::Rated,
            (false, true) => RatedAs::PairLimited,
            (false, false) => RatedAs::Casual,
        };
        self.store_then_tell(Some(game), move |db| {
            db.add_game(game as i64, ids, &clock, rated_as, &fen, (&pdn, clocks))
        });
        for n in &names {
            self.drop_seeks(n, "started another game", false);
            self.drop_rematch(
                n,
                &format!("{n} started another game: the rematch offer lapses."),
            );
            if let Some(online) = self.online.get_mut(n) {
                online.game = Some(game);
            }
        }
        tracing::info!(game, black = names[0], white = names[1], "game started");
        for (n, color) in names.iter().zip([Color::Black, Color::White]) {
            self.send(n, table.started(game, color));
        }
        let unrated = table.unrated_why.as_ref().map(|why| {
            format!(
                "Game {game} is played unrated: {why} (at most {RATED_PER_PAIR} a day between \
                 two players change ratings)."
            )
        });
        self.games.insert(game, table);
        self.tell_table(game);
        // After the table, so that a board shows it.
        if let Some(text) = unrated {
            for n in &names {
                let text = text.clone();
                self.send(n, ServerMessage::Info { text });
            }
        }
    }

    /// The game `name` may play again, and their opponent there.
    fn rematch_of(&self, name: &str) -> Option<(u64, String)> {
        self.rematches.iter().find_map(|(game, r)| {
            let i = r.names.iter().position(|n| n == name)?;
            Some((*game, r.names[1 - i].clone()))
        })
    }

    /// `name` offers a rematch, or accepts the one their opponent offered: the new game
    /// has the same clock, kind and ballot, colours swapped.
    fn rematch(&mut self, name: &str, now: Instant) {
        let Some((game, other)) = self.rematch_of(name) else {
            return self.reject(
                name,
                "no game to play again: rematch follows a game just ended",
            );
        };
        if self.online.get(name).is_some_and(|o| o.game.is_some()) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if !self.online.contains_key(&other) {
            self.rematches.remove(&game);
            return self.reject(name, format!("{other} is not online"));
        }
        let Some(rematch) = self.rematches.get_mut(&game) else {
            return;
        };
        match rematch.offered_by.as_deref() {
            Some(by) if by == name => self.reject(name, "you offered a rematch already"),
            Some(_) => {
                let Some(rematch) = self.rematches.remove(&game) else {
                    return;
                };
                let [black, white] = rematch.names;
                tracing::info!(game, "rematch");
                self.start_game(
                    [white, black],
                    (rematch.clock, rematch.clock_text, rematch.rated),
                    rematch.opening,
                    now,
                );
            }
            None => {
                rematch.offered_by = Some(name.to_string());
                let (rated, clock_text) = (rematch.rated, rematch.clock_text.clone());
                let kind = if rated { "rated" } else { "casual" };
                let unrated =
                    unrated_note(rated.then(|| self.unrated_why([name, &other])).flatten());
                let told = format!(
                    "{name} offers a rematch ({clock_text} {kind}, colours swapped): rematch \
                     accepts it, decline declines it.{unrated}"
                );
                self.send(&other, ServerMessage::Info { text: told });
                let text = format!("Rematch offered to {other}.{unrated}");
                self.send(name, ServerMessage::Info { text });
            }
        }
    }

    /// `name` declines the rematch their opponent offered (a new offer may follow).
    fn decline(&mut self, name: &str) {
        if self.decline_draw(name) {
            return;
        }
        let offered = self.rematch_of(name).and_then(|(game, other)| {
            let rematch = self.rematches.get_mut(&game)?;
            (rematch.offered_by.as_deref() == Some(other.as_str())).then(|| {
                rematch.offered_by = None;
                other
            })
        });
        let Some(other) = offered else {
            return self.reject(name, "no rematch is offered to you");
        };
        let text = format!("{name} declines the rematch.");
        self.send(&other, ServerMessage::Info { text });
        let text = format!("You declined {other}'s rematch.");
        self.send(name, ServerMessage::Info { text });
    }

    /// `name` declines the draw their opponent offers in the game they play, if one is
    /// offered: the offerer is told, and so is `name` (that the offerer was). Whether
    /// there was one to decline.
    fn decline_draw(&mut self, name: &str) -> bool {
        let Some((game, color)) = self.seat_of(name) else {
            return false;
        };
        let Some(table) = self.games.get_mut(&game) else {
            return false;
        };
        if table.adjourned.is_some()
            || table.session.game().draw_offer() != Some(!color)
            || table.session.decline_draw().is_err()
        {
            return false;
        }
        let other = table.names[index(!color)].clone();
        let text = format!("{name} declines the draw.");
        self.send(&other, ServerMessage::Info { text });
        let text = format!("You declined the draw: {other} is told.");
        self.send(name, ServerMessage::Info { text });
        self.tell_table(game);
        true
    }

    /// `name` is gone or busy: the rematch of their last game lapses, and an opponent
    /// who offered or was offered one is told `text`.
    fn drop_rematch(&mut self, name: &str, text: &str) {
        let Some((game, other)) = self.rematch_of(name) else {
            return;
        };
        if let Some(rematch) = self.rematches.remove(&game)
            && rematch.offered_by.is_some()
        {
            let text = text.to_string();
            self.send(&other, ServerMessage::Info { text });
        }
    }

    /// `name`'s game and the side they play there.
    fn seat_of(&self, name: &str) -> Option<(u64, Color)> {
        let game = self.online.get(name)?.game?;
        let table = self.games.get(&game)?;
        Some((game, table.side_of(name)?))
    }

    /// The game `name` plays in and their side, when they may act in it now; otherwise
    /// they are told why not (no game, or one adjourned until the other is back).
    fn playing(&mut self, name: &str) -> Option<(u64, Color)> {
        let Some((game, color)) = self.seat_of(name) else {
            self.reject(name, "you are not playing a game");
            return None;
        };
        let table = self.games.get(&game)?;
        if table.adjourned.is_some() {
            self.reject(name, "the game is adjourned until your opponent is back");
            return None;
        }
        if table.away[index(color)] {
            self.reject(
                name,
                format!("you left game {game}: resume goes back to it"),
            );
            return None;
        }
        Some((game, color))
    }

    /// `name` plays `text` in their game, for their own side only.
    fn play(&mut self, name: &str, text: &str) {
        let Some((game, color)) = self.playing(name) else {
            return;
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let turn = table.session.position().turn();
        if turn != color {
            return self.reject(name, format!("it is {turn}'s turn: you play {color}"));
        }
        let news = match table.session.play_text(text) {
            Ok(news) => news,
            Err(e) => return self.reject(name, format!("{text}: {e}")),
        };
        let News::Played { m, .. } = news else {
            return;
        };
        let ply = table.session.game().moves().len() - 1;
        let squares = m.to_string();
        // Stored before anyone hears of it: the messages wait for the write.
        let (pdn, clocks) = (table.pdn(&self.site), table.clocks());
        let stored = squares.clone();
        let write = self
            .store
            .ask(move |db| db.add_move(game as i64, ply, &stored, (&pdn, clocks)));
        self.outbox.post(Post::Stored {
            stored: write,
            game: Some(game),
        });
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let (clocks, running) = table.clocks_now();
        let message = ServerMessage::Moved {
            game,
            side: color.into(),
            squares,
            fen: table.session.position().to_string(),
            clocks,
            running,
        };
        // A board hears the game first, then the move, which it checks against it.
        let audience = table.audience(game, &self.online);
        self.tell_table(game);
        for n in audience {
            self.send(&n, message.clone());
        }
        self.end_if_over(game);
    }

    /// A page of `name`'s finished games, after game `after`.
    fn export(&mut self, name: &str, after: u64) {
        let Some(id) = self.online.get(name).map(|o| o.id) else {
            return;
        };
        let Some(to) = self.recipient(name) else {
            return;
        };
        let page = protocol::EXPORT_PAGE;
        let answer = self.store.ask(move |db| match db.records(id, after, page) {
            Ok(records) => {
                let next = (records.len() == page)
                    .then(|| records.last().map(|(game, _)| *game))
                    .flatten();
                let games = records.into_iter().map(|(_, pdn)| pdn).collect();
                ServerMessage::Records { games, next }
            }
            Err(e) => {
                tracing::error!(error = e, "cannot read a player's games");
                ServerMessage::Rejected {
                    reason: "the server cannot read your games now".to_string(),
                }
            }
        });
        self.outbox.post(Post::Answer { to, answer });
    }

    /// `name` watches game `number`: told it as it stands, then each move.
    fn watch(&mut self, name: &str, number: u64) {
        let Some(table) = self.games.get(&number) else {
            return self.reject(name, format!("no game {number} in play (games lists them)"));
        };
        if table.names.iter().any(|n| n == name) {
            return self.reject(name, "that is your own game");
        }
        let game = table.session.game();
        let (clocks, running) = table.clocks_now();
        let message = ServerMessage::Watching {
            game: number,
            black: table.names[0].clone(),
            white: table.names[1].clone(),
            clock: table.clock.clone(),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            fen: game.position().to_string(),
            clocks,
            running,
        };
        if let Some(online) = self.online.get_mut(name) {
            online.watching = Some(number);
        }
        self.send(name, message);
        self.tell_table(number);
    }

    /// `name` says `text` at their table (the game they play, or else the one they
    /// watch): everyone there hears it, the speaker too, its control characters stripped.
    fn say(&mut self, name: &str, text: &str, now: Instant) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let game = online
            .game
            .or(online.watching)
            .filter(|g| self.games.contains_key(g));
        // After a game its two players still talk at its table, while its rematch
        // stands (until either leaves or starts another game).
        let ended = self.rematch_of(name).filter(|_| game.is_none());
        if game.is_none() && ended.is_none() {
            return self.reject(
                name,
                "you are not at a table: play or watch a game to talk there",
            );
        }
        // Stripped, so that a line cannot move another player's cursor or ring.
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        let text = text.trim();
        if text.is_empty() {
            return self.reject(name, "say what? (say TEXT)");
        }
        if text.chars().count() > protocol::MAX_SAID {
            return self.reject(
                name,
                format!(
                    "a line said at a table is at most {} characters",
                    protocol::MAX_SAID
                ),
            );
        }
        let message = ServerMessage::Said {
            name: name.to_string(),
            text: text.to_string(),
        };
        let unix = crate::store::now_unix();
        if let Some(until) = self.muted_until(name, unix) {
            let when = moderation::until_words(until, unix);
            return self.reject(
                name,
                format!("a moderator muted you until {when}: nobody hears you until then"),
            );
        }
        let lines = self.table_chat;
        let allowed = match (game, &ended) {
            (Some(game), _) => self
                .games
                .get_mut(&game)
                .map(|t| t.chat.allows(name, now, lines)),
            (None, Some((ended, _))) => self
                .rematches
                .get_mut(ended)
                .map(|r| r.chat.allows(name, now, lines)),
            (None, None) => None,
        };
        let window = TABLE_CHAT_WINDOW.as_secs();
        match allowed {
            Some(Ok(())) => {}
            Some(Err(ChatFull::Speaker)) => {
                let share = speakers_share(lines);
                return self.reject(
                    name,
                    format!(
                        "you said {share} lines in {window} s, your share of this table's \
                         chat: say it again in a moment"
                    ),
                );
            }
            Some(Err(ChatFull::Table)) | None => {
                return self.reject(
                    name,
                    format!(
                        "this table's chat is busy ({lines} lines in {window} s): \
                         say it again in a moment"
                    ),
                );
            }
        }
        // The speaker hears it too, as the others do: the echo says it went out.
        let audience = match (game, ended) {
            (Some(game), _) => self.games[&game].audience(game, &self.online),
            (None, Some((_, other))) => vec![name.to_string(), other],
            (None, None) => Vec::new(),
        };
        for n in audience {
            self.send(&n, message.clone());
        }
    }

    /// `name` resigns their game.
    fn resign(&mut self, name: &str) {
        let Some((game, color)) = self.seat_of(name) else {
            return self.reject(name, "you are not playing a game");
        };
        if let Some(table) = self.games.get_mut(&game)
            && let Err(e) = table.session.resign(color)
        {
            return self.reject(name, e.to_string());
        }
        self.end_if_over(game);
    }

    /// `name` offers a draw on their turn, or accepts the one offered.
    fn draw(&mut self, name: &str) {
        let Some((game, color)) = self.playing(name) else {
            return;
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        if table.session.game().draw_offer() == Some(!color) {
            if let Err(e) = table.session.accept_draw() {
                return self.reject(name, e.to_string());
            }
            return self.end_if_over(game);
        }
        if table.session.position().turn() != color {
            return self.reject(name, "offer a draw on your turn");
        }
        if let Err(e) = table.session.offer_draw() {
            return self.reject(name, e.to_string());
        }
        let other = table.names[index(!color)].clone();
        self.send(
            &other,
            ServerMessage::DrawOffered {
                game,
                side: color.into(),
            },
        );
        self.send(
            name,
            ServerMessage::Info {
                text: "Draw offered.".to_string(),
            },
        );
        self.tell_table(game);
    }

    /// The time is `now`: a fallen flag ends its game; an adjourned game one player has
    /// waited at for [`ONE_BACK_WAIT`] goes on; an adjourned game that waited its time
    /// for its players is abandoned.
    pub(crate) fn tick(&mut self, now: Instant) {
        // Five times a second: the games are looked at in place, and a list is made
        // only of those due (none, mostly: an empty list takes no memory).
        let online = &self.online;
        let mut waited = Vec::new();
        for (game, table) in self.games.iter_mut() {
            if table.adjourned.is_none() {
                continue;
            }
            let kicked_away = table.held_for.is_some_and(|i| !table.is_at(i, online));
            if kicked_away || (0..2).filter(|&i| table.is_at(i, online)).count() != 1 {
                table.one_back_since = None;
                continue;
            }
            let since = *table.one_back_since.get_or_insert(now);
            if now.saturating_duration_since(since) >= ONE_BACK_WAIT {
                waited.push(*game);
            }
        }
        for game in waited {
            self.go_on_without_the_other(game);
        }
        if !self.presence_pending.is_empty() {
            self.tell_pending_presence(now);
        }
        let flagged: Vec<u64> = self
            .games
            .iter_mut()
            .filter_map(|(game, table)| table.session.tick(now).map(|_| *game))
            .collect();
        for game in flagged {
            self.end_if_over(game);
        }
        let wait = self.adjourned_for.as_secs();
        let unix = crate::store::now_unix();
        let expired: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, t)| {
                t.adjourned
                    .is_some_and(|since| unix.saturating_sub(since) >= wait)
            })
            .map(|(game, _)| *game)
            .collect();
        for game in expired {
            let Some(table) = self.games.get(&game) else {
                continue;
            };
            let text = format!(
                "Game {game} ({} - {}) is abandoned: it was adjourned longer than the server \
                 keeps a game waiting.",
                table.names[0], table.names[1]
            );
            self.abandon(game, &text);
        }
        if now.saturating_duration_since(self.moderators_read) >= moderation::MODERATORS_READ_EVERY
        {
            self.moderators_read = now;
            self.read_moderators();
        }
        if now.saturating_duration_since(self.alive_noted) >= HEARTBEAT_EVERY {
            self.alive_noted = now;
            let unix = crate::store::now_unix();
            // Nobody waits on it: a heartbeat lost to a failing disk is said in the log.
            drop(self.store.ask(move |db| {
                if let Err(error) = db.note_alive(unix, false) {
                    tracing::error!(error, "cannot note the server's heartbeat");
                }
            }));
        }
    }

    /// Adjourned `game` goes on, its clocks running, though one player is still away:
    /// the one at it is shown the game, the one away told their clock runs.
    fn go_on_without_the_other(&mut self, game: u64) {
        self.go_on(game);
        let Some(table) = self.games.get(&game) else {
            return;
        };
        tracing::info!(game, "goes on, one player away");
        let mut told = Vec::new();
        for (i, color) in [(0, Color::Black), (1, Color::White)] {
            let (name, other) = (&table.names[i], &table.names[1 - i]);
            if self.at_table(table, i) {
                let text = format!(
                    "{other} has not come back: game {game} goes on; if {other}'s time runs \
                     out, {other} loses."
                );
                told.push((name.clone(), table.started(game, color)));
                told.push((name.clone(), ServerMessage::Info { text }));
            } else {
                let clock =
                    super::protocol::clock_while_away(table.session.position().turn() == color);
                let text =
                    format!("Game {game} goes on, {clock}: resume it (Enter on it) to go back.");
                told.push((name.clone(), ServerMessage::Info { text }));
            }
        }
        for (name, message) in told {
            self.send(&name, message);
        }
        self.tell_table(game);
    }

    /// `game` ends as abandoned (unrated), stored so, and its players online are told
    /// `text`.
    fn abandon(&mut self, game: u64, text: &str) {
        let Some(table) = self.games.remove(&game) else {
            return;
        };
        let pdn = table.pdn(&self.site);
        tracing::info!(game, "abandoned");
        self.store_then_tell(None, move |db| {
            let now = crate::store::now_unix();
            db.finish_game(game as i64, super::db::ABANDONED, &pdn, now, None)
        });
        for n in &table.names {
            if let Some(online) = self.online.get_mut(n) {
                online.game = None;
                let text = text.to_string();
                self.send(n, ServerMessage::Info { text });
            }
        }
    }

    /// If `game` is over: its record stored, ratings updated, both players told.
    fn end_if_over(&mut self, game: u64) {
        let Some(outcome) = self
            .games
            .get(&game)
            .and_then(|t| t.session.game().result())
        else {
            return;
        };
        // The boards see the game's end on it before it leaves the tables.
        self.tell_table(game);
        let Some(table) = self.games.remove(&game) else {
            return;
        };
        let pdn = table.pdn(&self.site);
        let result = outcome.pdn_result();
        let ended = crate::store::now_unix();
        let mut ratings_text = None;
        let mut ratings = None;
        let opening = table.session.ballot().map_or(0, |o| o.line.len());
        let played = table.session.game().moves().len().saturating_sub(opening);
        if table.rated && played < RATED_FROM_PLIES {
            ratings_text =
                Some("none changed, as the game ended before both sides moved".to_string());
        } else if table.rated {
            let before = table.ratings;
            let score = match result {
                "1-0" => skillratings::Outcomes::WIN,
                "0-1" => skillratings::Outcomes::LOSS,
                _ => skillratings::Outcomes::DRAW,
            };
            let (black, white) = glicko2(&before[0], &before[1], &score, &Glicko2Config::new());
            let [black, white] = damped(before, [black, white], table.rated_games);
            ratings = Some([(table.ids[0], black), (table.ids[1], white)]);
            for (n, after) in table.names.iter().zip([black, white]) {
                if let Some(online) = self.online.get_mut(n) {
                    online.rating = after;
                    online.rated_games += 1;
                }
            }
            self.count_rated(table.ids, ended);
            ratings_text = Some(format!(
                "{} {:.0} -> {:.0}, {} {:.0} -> {:.0}",
                table.names[0],
                before[0].rating,
                black.rating,
                table.names[1],
                before[1].rating,
                white.rating
            ));
        } else if let Some(why) = &table.unrated_why {
            ratings_text = Some(format!("none changed, as {why}"));
        }
        let stored_result = result.to_string();
        self.store_then_tell(None, move |db| {
            db.finish_game(game as i64, &stored_result, &pdn, ended, ratings)
        });
        tracing::info!(game, result, "game over");
        let control = table
            .control
            .or_else(|| table.clock.parse::<TimeControl>().ok());
        if let Some(clock) = control {
            for n in &table.names {
                self.rematches.retain(|_, r| !r.names.contains(n));
            }
            self.rematches.insert(
                game,
                Rematch {
                    names: table.names.clone(),
                    clock,
                    clock_text: table.clock.clone(),
                    // As asked: a game played unrated for its players' rated games today
                    // is offered rated again (and played unrated while that holds).
                    rated: table.rated || table.unrated_why.is_some(),
                    opening: table.session.ballot().cloned(),
                    offered_by: None,
                    chat: table.chat.clone(),
                },
            );
        }
        let message = ServerMessage::Ended {
            game,
            result: result.to_string(),
            text: outcome.to_string(),
            ratings: ratings_text,
        };
        for n in table.audience(game, &self.online) {
            if let Some(online) = self.online.get_mut(&n) {
                if online.game == Some(game) {
                    online.game = None;
                }
                if online.watching == Some(game) {
                    online.watching = None;
                }
            }
            self.send(&n, message.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowds_seeks_are_listed_a_hundred_at_most_with_how_many_more() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let (outbox, _posts) = Outbox::new();
        let day = std::time::Duration::from_secs(86_400);
        let now = Instant::now();
        let settings = Settings {
            site: "here".to_string(),
            adjourned_for: day,
            table_chat: 20,
        };
        let (mut lobby, _) = Lobby::open(store, outbox, settings, now).unwrap();
        for i in 0..120 {
            let (out, _queue) = mpsc::channel(4);
            let name = format!("p{i}");
            let address = IpAddr::from([127, 0, 0, 1]);
            let player = super::super::db::PlayerRow {
                id: 0,
                key: Vec::new(),
                rating: Glicko2Rating::new(),
                rated_games: 0,
                moderator: false,
            };
            lobby.enter(&name, &player, (i, address), out);
            let seek = ClientMessage::Seek {
                clock: "5+3".to_string(),
                rated: true,
                side: None,
                ballot: false,
            };
            lobby.handle(&name, seek, now);
        }
        let text = lobby.seeks_text("p0");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 100 + 1, "{text}");
        assert!(lines[1].starts_with("  1: p0 (1500) 5+3 rated"), "{text}");
        assert!(lines[100].starts_with("  100: p99 "), "{text}");
        assert_eq!(lines[101], "  ... and 20 more (newer) seeks");
    }

    #[test]
    fn an_established_player_against_a_new_one_moves_by_the_share_of_games_they_had() {
        let rated = |rating: f64| Glicko2Rating {
            rating,
            ..Glicko2Rating::new()
        };
        let (before, after) = ([rated(1500.0); 2], [rated(1510.0), rated(1400.0)]);
        // To a millionth of a point (a share is a float).
        let moved =
            |games: [u32; 2]| damped(before, after, games).map(|r| (r.rating * 1e6).round() / 1e6);
        assert_eq!(moved([PROVISIONAL_GAMES, 0]), [1500.0, 1400.0]);
        assert_eq!(moved([PROVISIONAL_GAMES + 3, 3]), [1503.0, 1400.0]);
        assert_eq!(moved([4, PROVISIONAL_GAMES]), [1510.0, 1460.0]);
        assert_eq!(moved([PROVISIONAL_GAMES; 2]), [1510.0, 1400.0]);
        assert_eq!(moved([2, 3]), [1510.0, 1400.0]);
    }
}
