//! A session that follows a game held at another terminal (network play): the moves,
//! the ending, the draw offer and the clocks are the other terminal's, as it last told
//! them; this terminal only shows them and sends its player's requests there.

use super::*;

/// The game as the terminal holding it last told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Followed {
    /// The game: its moves, its ending, a pending draw offer.
    pub(crate) game: Game,
    /// The players' names.
    pub(crate) names: Players,
    /// Each side's time left (Black's, White's) when it was told, in a timed game, and
    /// the side whose clock runs.
    pub(crate) clocks: Option<([Duration; 2], Option<Color>)>,
    /// The match the game is part of, as its record tells it.
    pub(crate) match_play: Option<Match>,
}

impl Followed {
    /// The game a record tells (its moves, ending, names and match), no clocks.
    pub(crate) fn of_record(record: &PdnGame) -> Followed {
        let (game, names) = game_from_record(record);
        Followed {
            game,
            names,
            clocks: None,
            match_play: matches::match_from_record(record),
        }
    }
}

impl Session {
    /// With the record's `Site` saying where the game is played.
    pub(crate) fn with_site(mut self, site: String) -> Session {
        self.origin.site = Some(site);
        self
    }

    /// The player of `color` is called `name` (in the record, and in a match's score).
    pub(crate) fn name_player(&mut self, color: Color, name: String) {
        match color {
            Color::Black => self.names.black = Some(name.clone()),
            Color::White => self.names.white = Some(name.clone()),
        }
        if let Some(contest) = self.match_play.as_mut() {
            contest.rename(color, name);
        }
    }

    /// The clocks shown at `now`, with no flag fall: the terminal holding the game
    /// decides that, and tells it.
    pub(crate) fn tick_shown(&mut self, now: Instant) {
        if let Some(timing) = self.timing.as_mut() {
            timing.shown_at(now);
        }
    }

    /// The game becomes `followed`, told at `now`: a changed game counts a revision
    /// (the screen shows the new position), and the clocks show the times told, the
    /// running one going on from `now`.
    pub(crate) fn follow(&mut self, followed: Followed, now: Instant) {
        let Followed {
            game,
            names,
            clocks,
            match_play,
        } = followed;
        if match_play.is_some() {
            self.match_play = match_play;
        }
        if game != self.game {
            self.track(|s| s.game = game);
            self.review = None;
        }
        self.names = names;
        if let (Some(timing), Some((left, running))) = (self.timing.as_mut(), clocks) {
            timing.follow(left, running, now);
        }
    }

    /// The game as it stands, to be told to another terminal: see [`Followed`].
    pub(crate) fn followed(&self) -> Followed {
        let clocks = self.timing.as_ref().map(Timing::readings);
        Followed {
            game: self.game.clone(),
            names: self.names.clone(),
            clocks,
            match_play: self.match_play.clone(),
        }
    }
}
