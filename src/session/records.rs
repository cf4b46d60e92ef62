//! A session's record: made from a PDN record (`--resume`, `--load`) and written back
//! as one, for saves, the autosave and a match's file, clocks included.

use super::*;

/// The record tag saying whether the engine's help was on (`on` or `off`).
pub(crate) const ASSIST_TAG: &str = "Assist";

/// Where a game's record comes from, as its saves keep it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Origin {
    /// Where the game is played, for the record's `Site` (a game across the network).
    pub(super) site: Option<String>,
    /// Event, Site, Date and Round of the record the game came from.
    pub(super) kept_tags: Vec<(String, String)>,
    /// The game came from a record: its date is the record's own, unknown if it had
    /// none (never today's, which only a new game gets).
    pub(super) loaded: bool,
    /// Opened from a record and not played on yet: nothing to autosave.
    pub(super) untouched: bool,
    /// The record file the game came from (with `--load`), and the game's number in it.
    pub(super) file: Option<(Arc<RecordFile>, usize)>,
    /// The record's own `Termination` (another program's words, "adjudication"), kept
    /// while the game ends as that record scores it.
    pub(super) termination: Option<String>,
    /// Where a record cut short at a move that cannot be played stops (its
    /// `Termination`, see [`GameError::up_to_fault`](crate::pdn::GameError)), said
    /// again by a save while nothing is played on from it.
    pub(super) stopped: Option<String>,
    /// The record's own `Assist` tag, if it had one: a record saved again unplayed says
    /// what it said, and a tournament game gains no word of an engine's help.
    pub(super) assist_tag: Option<String>,
    /// The record's game as it ended (its result, a resignation or an agreed draw),
    /// when its review was left at its last move: saved before play goes on, the game
    /// keeps the record's result rather than reading as unfinished.
    pub(super) left_at_end: Option<Game>,
    /// The record the game was loaded from, whole: its saves keep the tags it had
    /// that this program does not write itself, in its order, and (see
    /// [`Session::loaded_from`]) its comments and variations.
    pub(super) source: Option<Arc<PdnGame>>,
}

impl Origin {
    /// A new game in the session: the loaded record's tags are not its, and it is
    /// played.
    pub(super) fn new_game(&mut self) {
        self.kept_tags.clear();
        self.loaded = false;
        self.termination = None;
        self.stopped = None;
        self.assist_tag = None;
        self.left_at_end = None;
        self.source = None;
        self.untouched = false;
    }
}

impl Session {
    /// The game of `record`, as saved by this program or any other: its moves, the
    /// moves taken back (ready for redo), its ending, the players' names, who played
    /// each side (the computer and its level, see [`seat_tags`]) and where and when it
    /// was played. Play goes on from its last position.
    pub(crate) fn from_record(record: &PdnGame) -> Session {
        let (game, names) = game_from_record(record);
        let seats = seats_from_tags(|name| record.tag(name).map(String::from));
        // The computer comes back as a seat, named by its level now.
        let names = super::players::without_program_names(names, seats);
        let level = [Color::Black, Color::White]
            .into_iter()
            .find_map(|c| seats.computer(c))
            .unwrap_or_default();
        let kept_tags = record
            .tags
            .iter()
            .filter(|(name, _)| KEPT_TAGS.contains(&name.as_str()))
            .cloned()
            .collect();
        let ballot = record
            .tag(BALLOT_TAG)
            .and_then(|n| n.trim().parse::<u32>().ok())
            .and_then(|n| {
                crate::engine::acf_openings()
                    .into_iter()
                    .find(|o| o.number == n)
            })
            .filter(|o| {
                *game.start() == crate::rules::Position::start()
                    && game.moves().len() + game.undone_moves().len() >= o.line.len()
                    && game
                        .moves()
                        .iter()
                        .chain(game.undone_moves().iter())
                        .zip(&o.line)
                        .all(|(a, b)| a == b)
            });
        let ballot_plies = ballot.as_ref().map_or(0, |o| o.line.len());
        let recorded_clock = recorded_clock(record, &game, ballot_plies);
        let match_play = matches::match_from_record(record);
        let assist = record.tag(ASSIST_TAG).is_none_or(|v| v.trim() != "off");
        Session {
            match_play,
            assist,
            seats,
            computer: computer::Computer {
                level,
                ..computer::Computer::default()
            },
            names,
            origin: Origin {
                kept_tags,
                loaded: true,
                termination: record.tag("Termination").map(String::from),
                assist_tag: record.tag(ASSIST_TAG).map(String::from),
                source: Some(Arc::new(record.clone())),
                ..Origin::default()
            },
            ballot,
            recorded_clock,
            ..Session::new(game)
        }
    }

    /// The game's record: the whole recorded game while one is reviewed, otherwise the
    /// game as it is (moves taken back included, for redo after a resume), with the
    /// players' names, who played each side, and a loaded record's Event, Site, Date and
    /// Round, none invented where it had none (`today` is the date of a game not loaded
    /// from a record). A review left at the record's end and not played on since is
    /// still the recorded game, its result kept.
    pub(crate) fn record(&self, today: &str) -> PdnGame {
        let game = match &self.review {
            Some(review) => &review.recorded,
            None => self.left_as_recorded().unwrap_or(&self.game),
        };
        let mut record = game_record(game, &self.record_names(), self.date(today));
        // A loaded record keeps the tags it had: where it named no Event, none is
        // invented for it (`?`, unknown, as its other missing roster tags are written).
        if self.origin.loaded && !self.origin.kept_tags.iter().any(|(n, _)| n == "Event") {
            record.set_tag("Event", "?");
        }
        for (name, value) in self
            .origin
            .kept_tags
            .iter()
            .chain(&seat_tags(self.seats))
            .chain(&self.match_tags())
        {
            record.set_tag(name, value);
        }
        if let Some(site) = &self.origin.site {
            record.set_tag("Site", site);
        }
        // A decided record whose ending this program does not name keeps its own words.
        let as_recorded = game.result().is_some_and(|o| o.is_as_recorded());
        if let Some(termination) = self.origin.termination.as_ref().filter(|_| as_recorded) {
            record.set_tag("Termination", termination);
        }
        if let Some(stopped) = self
            .origin
            .stopped
            .as_ref()
            .filter(|_| self.origin.untouched)
        {
            // The record as loaded, cut short: its save says where it stops.
            record.set_tag("Termination", stopped);
        }
        if self.origin.untouched {
            // Not played here: the record's own word on the engine's help, or none.
            if let Some(assist) = &self.origin.assist_tag {
                record.set_tag(ASSIST_TAG, assist);
            }
        } else if !self.assist || self.seats.people() {
            // Whether the engine helped, where it matters: between two people, or off.
            record.set_tag(ASSIST_TAG, if self.assist { "on" } else { "off" });
        }
        if let Some(opening) = &self.ballot {
            record.set_tag(BALLOT_TAG, &opening.number.to_string());
        }
        // The opening's name, the ballot's included: the longest named line played.
        if let Some(name) = game_opening_name(game) {
            record.set_tag(OPENING_TAG, name);
        }
        if let Some(clock) = self.clock().filter(|_| self.review.is_none()) {
            record.set_tag("TimeControl", &clock.control().to_string());
            for color in Color::ALL {
                record.set_tag(
                    &format!("{}Clock", color.name()),
                    &crate::pdn::clock_text(clock.reading(color)),
                );
            }
            // The readings belong to the last moves: those made on the clock.
            let after = clock.readings_after_moves();
            let moves = record.moves.len();
            let clocked = after.len().min(moves);
            record.clocks = vec![None; moves - clocked];
            record
                .clocks
                .extend(after[after.len() - clocked..].iter().map(|d| Some(*d)));
        } else if let Some(review) = &self.review {
            record.clocks = review.clocks.clone();
            if let Some(control) = review.tag("TimeControl") {
                record.set_tag("TimeControl", control);
            }
        } else if let Some(source) = &self.origin.source {
            // Played on from a record with no clock of its own: the record's clock
            // readings stay with its moves, as far as the game still follows them.
            let same = (record.moves.iter().zip(&source.moves))
                .take_while(|(a, b)| a == b)
                .count();
            record.clocks = source.clocks.iter().take(same).copied().collect();
        }
        if let Some(source) = &self.origin.source {
            record.tags = with_source_tags(&source.tags, std::mem::take(&mut record.tags));
        }
        record
    }

    /// The file and game number a loaded game came from, with the record as loaded,
    /// while the game is still that record's (reviewed, or played on from it): a save
    /// writes the game with that game's comments and variations from the file
    /// ([`write_keeping`](crate::pdn::write_keeping)).
    pub(crate) fn loaded_from(&self) -> Option<(&std::path::Path, usize, &PdnGame)> {
        let source = self.origin.source.as_deref()?;
        let (file, number) = self.origin.file.as_ref()?;
        Some((file.path.as_path(), *number, source))
    }

    /// The recorded game, with its ending, while the game is still exactly it: its
    /// review was left at the last move and no move has been played or taken back since
    /// (play on, and the game is unfinished until it ends anew).
    fn left_as_recorded(&self) -> Option<&Game> {
        self.origin.left_at_end.as_ref().filter(|recorded| {
            recorded.start() == self.game.start()
                && recorded.moves() == self.game.moves()
                && self.game.undone_moves().is_empty()
        })
    }

    /// The game's date as its record says it: a loaded record's own, unknown
    /// ([`UNKNOWN_DATE`](crate::pdn::UNKNOWN_DATE)) if it had none, and `today` only
    /// for a new game.
    pub(crate) fn date<'a>(&'a self, today: &'a str) -> &'a str {
        let kept = self.origin.kept_tags.iter();
        match kept
            .filter(|(name, _)| name == "Date")
            .map(|(_, v)| v)
            .next()
        {
            Some(date) => date,
            None if self.origin.loaded => crate::pdn::UNKNOWN_DATE,
            None => today,
        }
    }

    /// The record the autosave keeps, if there is a game in progress: not while a
    /// loaded record is only stepped through, nor after a review until play goes on
    /// (an unfinished game already saved must not be replaced by a file's).
    pub(crate) fn autosave_record(&self, today: &str) -> Option<PdnGame> {
        (self.review.is_none() && !self.origin.untouched).then(|| self.record(today))
    }
}

/// The tags this program writes from the game itself, or leaves out on purpose: a
/// loaded record's own are not carried into its saves (its result, ending, clocks,
/// seats, match, moves taken back, and the roster the writer always writes).
const OWN_TAGS: [&str; 17] = [
    "GameType",
    "Event",
    "Site",
    "Date",
    "Round",
    "Black",
    "White",
    "Result",
    "SetUp",
    "FEN",
    "Termination",
    "Undone",
    "TimeControl",
    "BlackClock",
    "WhiteClock",
    ASSIST_TAG,
    BALLOT_TAG,
];

/// Whether `name` is a tag this program writes from the game (see [`OWN_TAGS`]),
/// who played each side included (`BlackType`, `WhiteLevel`) and a match's state.
fn is_own_tag(name: &str) -> bool {
    OWN_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name))
        || ["BlackType", "WhiteType", "BlackLevel", "WhiteLevel"]
            .iter()
            .any(|t| t.eq_ignore_ascii_case(name))
        || super::matches::MATCH_TAGS
            .iter()
            .any(|t| t.eq_ignore_ascii_case(name))
}

/// The tags of a save of a loaded record: the record's own (`source`) that this
/// program does not write itself, in their order (the value `written` gives, where it
/// gives one), then the rest of `written`.
fn with_source_tags(
    source: &[(String, String)],
    mut written: Vec<(String, String)>,
) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = Vec::with_capacity(source.len() + written.len());
    for (name, value) in source.iter().filter(|(name, _)| !is_own_tag(name)) {
        if tags.iter().any(|(n, _)| n == name) {
            continue;
        }
        match written.iter().position(|(n, _)| n == name) {
            Some(i) => tags.push(written.remove(i)),
            None => tags.push((name.clone(), value.clone())),
        }
    }
    tags.extend(written);
    tags
}

/// The clocks `record` kept for `game`, whose first `ballot_plies` moves (a ballot's)
/// were not made on the clock: its `TimeControl` tag, the `%clk` reading after each
/// move made on the clock (the clocks are rebuilt move by move, so undo takes time back
/// too, and a 30/60 game knows its period from the moves made), and the `BlackClock` and
/// `WhiteClock` tags, each side's time left when the record was saved. A record with
/// no `%clk` readings (an older one) gives the tags' times and each side's moves
/// counted from the game.
fn recorded_clock(record: &PdnGame, game: &Game, ballot_plies: usize) -> Option<Clock> {
    let control: TimeControl = record.tag("TimeControl")?.parse().ok()?;
    let moves = game.moves().len();
    let fixed = ballot_plies.min(moves);
    let readings: Option<Vec<Duration>> = (fixed..moves)
        .map(|i| record.clocks.get(i).copied().flatten())
        .collect();
    let first = game
        .positions()
        .get(fixed)
        .map_or(Color::Black, |p| p.turn());
    let mut clock = match readings {
        Some(readings) => Clock::replayed(control, first, &readings),
        None => {
            let mut made = [0u32; 2];
            for pos in &game.positions()[fixed..moves] {
                made[usize::from(pos.turn() == Color::White)] += 1;
            }
            Clock::with_readings(control, [control.initial(); 2], made)
        }
    };
    for color in Color::ALL {
        if let Some(left) = record
            .tag(&format!("{}Clock", color.name()))
            .and_then(crate::pdn::parse_clock)
        {
            clock.set_reading(color, left);
        }
    }
    Some(clock)
}
