//! The games in play: their start, moves, draws and resignations, and their end
//! (stored, ratings changed).

use super::chat::Chat;
use super::presence::{Presence, Whereabouts};
use super::ratings::{RATED_FROM_PLIES, damped};
use super::*;
use skillratings::glicko2::{Glicko2Config, glicko2};

/// A game in play, refereed here.
pub(super) struct Table {
    /// The game, its rules and clocks.
    pub(super) session: Session,
    /// Black's and White's names.
    pub(super) names: [String; 2],
    /// Black's and White's rows.
    pub(super) ids: [i64; 2],
    /// Black's and White's ratings as the game started (a player plays one game at a
    /// time: the ratings it changes at its end).
    pub(super) ratings: [Glicko2Rating; 2],
    /// Black's and White's rated games that changed their ratings, as it started.
    pub(super) rated_games: [u32; 2],
    /// Whether it is rated.
    pub(super) rated: bool,
    /// Why a game asked rated is played unrated (its players had [`RATED_PER_PAIR`]
    /// rated games in 24 hours), as the result line says it.
    pub(super) unrated_why: Option<String>,
    /// The clock as given.
    pub(super) clock: String,
    /// The clock's control, for a rematch (none for a game taken back from the
    /// database, whose rematch reads `clock` again).
    pub(super) control: Option<TimeControl>,
    /// Since when (unix seconds) the game waits for a player to come back, its clocks
    /// stopped (moved on by the time the server was down since); none while in play.
    pub(super) adjourned: Option<u64>,
    /// Whether Black, White adjourned it (`adjourn`) and stays in the lobby: away from
    /// it, and not told its table, until they resume it (or log in again).
    pub(super) away: [bool; 2],
    /// Since when one player alone has been back at the adjourned game (see
    /// [`ONE_BACK_WAIT`]).
    pub(super) one_back_since: Option<Instant>,
    /// The seat (0 Black, 1 White) of a player a moderator disconnected from the game:
    /// it waits for them however long the other is back, so that a kick never loses
    /// it; forgotten once it goes on.
    pub(super) held_for: Option<usize>,
    /// The lines said at the table in the last [`TABLE_CHAT_WINDOW`].
    pub(super) chat: Chat,
    /// What the others were last told of where each player is.
    pub(super) presence: Presence,
}

impl Table {
    /// The message telling the player of `color` that the game starts or goes on.
    pub(super) fn started(&self, game: u64, color: Color) -> ServerMessage {
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
            running: Some(running),
        }
    }

    /// Black's and White's time left now, in milliseconds (none: untimed), and the side
    /// whose clock runs (none while the game waits, adjourned): what a plain client is
    /// told to count from.
    pub(super) fn clocks_now(&self) -> (Option<[u64; 2]>, Option<protocol::Side>) {
        let Some((left, running)) = self.session.followed().clocks else {
            return (None, None);
        };
        let millis = left.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let running = running.filter(|_| self.adjourned.is_none());
        (Some(millis), running.map(Into::into))
    }

    /// Black's and White's time left as the record keeps it (when their clock last
    /// stopped, or their turn began), to the millisecond; none in an untimed game.
    pub(super) fn clocks(&self) -> Option<[std::time::Duration; 2]> {
        let clock = self.session.clock()?;
        Some(Color::ALL.map(|c| clock.reading(c)))
    }

    /// The current record, as PDN.
    pub(super) fn pdn(&self, site: &str) -> String {
        let mut record = self.session.record(&crate::store::today());
        record.set_tag("Event", "checkers server");
        record.set_tag("Site", site);
        crate::pdn::write_game(&record)
    }

    /// The side `name` plays at this table, if they play here.
    pub(super) fn side_of(&self, name: &str) -> Option<Color> {
        let seat = self.names.iter().position(|n| n == name)?;
        Some(if seat == 0 {
            Color::Black
        } else {
            Color::White
        })
    }

    /// Whether the player at `i` (0 Black, 1 White) is at the game, of those `online`:
    /// online, and not away in the lobby.
    pub(super) fn is_at(&self, i: usize, online: &BTreeMap<String, Online>) -> bool {
        !self.away[i] && online.contains_key(&self.names[i])
    }

    /// Whether `name` plays here and is away in the lobby (not shown the board until
    /// they resume).
    pub(super) fn away_in_lobby(&self, name: &str) -> bool {
        self.side_of(name).is_some_and(|c| self.away[index(c)])
    }

    /// Who hears of this game's moves: its players, then who watches it.
    pub(super) fn audience(&self, game: u64, online: &BTreeMap<String, Online>) -> Vec<String> {
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

impl Lobby {
    /// A game starts between `names` (Black, White) with `clock` (its control, as
    /// given) and rated or not, from `opening` if one: stored, then both told. A rated
    /// game between two players who had [`RATED_PER_PAIR`] rated games in 24 hours is played
    /// unrated, and both are told so.
    pub(super) fn start_game(
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

    /// `name`'s game and the side they play there.
    pub(super) fn seat_of(&self, name: &str) -> Option<(u64, Color)> {
        let game = self.online.get(name)?.game?;
        let table = self.games.get(&game)?;
        Some((game, table.side_of(name)?))
    }

    /// The game `name` plays in and their side, when they may act in it now; otherwise
    /// they are told why not (no game, or one adjourned until the other is back).
    pub(super) fn playing(&mut self, name: &str) -> Option<(u64, Color)> {
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
    pub(super) fn play(&mut self, name: &str, text: &str) {
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
            running: Some(running),
        };
        // A board hears the game first, then the move, which it checks against it.
        let audience = table.audience(game, &self.online);
        self.tell_table(game);
        for n in audience {
            self.send(&n, message.clone());
        }
        self.end_if_over(game);
    }

    /// `name` resigns their game.
    pub(super) fn resign(&mut self, name: &str) {
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
    pub(super) fn draw(&mut self, name: &str) {
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

    /// `name` declines the draw their opponent offers in the game they play, if one is
    /// offered: the offerer is told, and so is `name` (that the offerer was). Whether
    /// there was one to decline.
    pub(super) fn decline_draw(&mut self, name: &str) -> bool {
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

    /// If `game` is over: its record stored, ratings updated, both players told.
    pub(super) fn end_if_over(&mut self, game: u64) {
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
            self.rated_pairs.count(table.ids, ended);
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

    /// `game` ends as abandoned (unrated), stored so; its players online are told
    /// `text` as its end, and its spectators `watchers_text` (a spectator is not one of
    /// the "you" the players' words speak to).
    pub(super) fn abandon(&mut self, game: u64, text: &str, watchers_text: &str) {
        let Some(table) = self.games.remove(&game) else {
            return;
        };
        let pdn = table.pdn(&self.site);
        tracing::info!(game, "abandoned");
        self.store_then_tell(None, move |db| {
            let now = crate::store::now_unix();
            db.finish_game(game as i64, crate::server::db::ABANDONED, &pdn, now, None)
        });
        // Told as the game's end, so that a board stops waiting for the player away.
        // An older client printed its result before the words ("Game 1 over: * A
        // moderator banned ..."): it is given words in its place. An older plain client
        // adds a full stop after the words ("Game 1 over: RESULT WORDS."): it is given
        // them without their own; an older full-screen one (it asks for a board) shows
        // them as they are ("Game over: WORDS"), so it keeps it (it read "... You are
        // free to play").
        let ended = |text: &str, reads_no_result: bool, full_screen: bool| ServerMessage::Ended {
            game,
            result: if reads_no_result {
                protocol::NO_RESULT.to_string()
            } else {
                protocol::ABANDONED_FOR_OLDER.to_string()
            },
            text: if reads_no_result || full_screen {
                text.to_string()
            } else {
                text.strip_suffix('.').unwrap_or(text).to_string()
            },
            ratings: None,
        };
        for n in table.audience(game, &self.online) {
            let Some(online) = self.online.get_mut(&n) else {
                continue;
            };
            let (reads, full_screen) = (online.reads_no_result, online.board);
            let message = if table.names.contains(&n) {
                online.game = None;
                ended(text, reads, full_screen)
            } else {
                online.watching = None;
                ended(watchers_text, reads, full_screen)
            };
            self.send(&n, message);
        }
    }

    /// The games whose flag fell by `now` end.
    pub(super) fn end_flagged(&mut self, now: Instant) {
        let flagged: Vec<u64> = self
            .games
            .iter_mut()
            .filter_map(|(game, table)| table.session.tick(now).map(|_| *game))
            .collect();
        for game in flagged {
            self.end_if_over(game);
        }
    }
}
