//! Who sits at each side of the board: a person or the computer at a level, and the
//! names a record gives them.

use crate::engine::Level;
use crate::pdn::Players;
use crate::rules::Color;

/// Who plays a side, as the command line names it (`--black cpu`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub(crate) enum PlayerKind {
    /// A person at the keyboard.
    #[default]
    Human,
    /// The computer.
    Cpu,
}

/// Who plays a side in a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum Player {
    /// A person at the keyboard.
    #[default]
    Person,
    /// The computer, at this level.
    Computer(Level),
    /// A person at another terminal, across the network: this terminal never acts for
    /// them (their moves and answers come over the connection).
    Remote,
}

impl Player {
    /// The computer's level, if the computer plays.
    pub(crate) fn level(self) -> Option<Level> {
        match self {
            Player::Person | Player::Remote => None,
            Player::Computer(level) => Some(level),
        }
    }

    /// What the command line calls this kind of player.
    #[cfg(test)]
    pub(crate) fn kind(self) -> PlayerKind {
        match self {
            Player::Person | Player::Remote => PlayerKind::Human,
            Player::Computer(_) => PlayerKind::Cpu,
        }
    }

    /// The player of `kind`, a computer one at `level`.
    pub(crate) fn of_kind(kind: PlayerKind, level: Level) -> Player {
        match kind {
            PlayerKind::Human => Player::Person,
            PlayerKind::Cpu => Player::Computer(level),
        }
    }
}

/// Who plays each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Seats {
    /// Black's player.
    pub(crate) black: Player,
    /// White's player.
    pub(crate) white: Player,
}

impl Seats {
    /// Two people.
    pub(crate) const PEOPLE: Seats = Seats {
        black: Player::Person,
        white: Player::Person,
    };

    /// Who plays `color`.
    pub(crate) fn of(self, color: Color) -> Player {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Seats `player` at `color`.
    pub(crate) fn set(&mut self, color: Color, player: Player) {
        match color {
            Color::Black => self.black = player,
            Color::White => self.white = player,
        }
    }

    /// The computer's level at `color`, if the computer plays it.
    pub(crate) fn computer(self, color: Color) -> Option<Level> {
        self.of(color).level()
    }

    /// Whether the computer plays `color`.
    pub(crate) fn is_computer(self, color: Color) -> bool {
        self.computer(color).is_some()
    }

    /// Whether the computer plays both sides (it then brings the game to an end by
    /// itself).
    pub(crate) fn both_computer(self) -> bool {
        self.is_computer(Color::Black) && self.is_computer(Color::White)
    }

    /// Whether exactly one side is the computer's: a person plays against it, and undo
    /// and redo go back and forth by whole turns of the person's.
    pub(crate) fn against_computer(self) -> bool {
        self.is_computer(Color::Black) != self.is_computer(Color::White)
    }

    /// Whether people play both sides (at this terminal or across the network).
    pub(crate) fn people(self) -> bool {
        !self.is_computer(Color::Black) && !self.is_computer(Color::White)
    }

    /// Whether a person at another terminal plays `color`.
    pub(crate) fn is_remote(self, color: Color) -> bool {
        self.of(color) == Player::Remote
    }

    /// The side a person at another terminal plays, in a game across the network.
    pub(crate) fn remote_side(self) -> Option<Color> {
        Color::ALL.into_iter().find(|c| self.is_remote(*c))
    }

    /// The one side the person at this terminal plays, when the other is someone
    /// else's (the computer's or a person's at another terminal).
    pub(crate) fn only_person_here(self) -> Option<Color> {
        let here = |c: Color| self.of(c) == Player::Person;
        Color::ALL.into_iter().find(|c| here(*c) && !here(!*c))
    }

    /// The one side a person plays against the computer, if that is the game.
    pub(crate) fn person_against_computer(self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.against_computer() && !self.is_computer(*c))
    }
}

/// "White (level 5)": how messages name a computer player.
pub(crate) fn computer_name(color: Color, level: Level) -> String {
    format!("{color} ({level})")
}

/// The name a record gives a computer player that has no name of its own.
pub(crate) fn program_name(level: Level) -> String {
    format!("checkers ({level})")
}

/// Whether `name` is one [`program_name`] gives ("checkers (level 9)", any level).
pub(crate) fn is_program_name(name: &str) -> bool {
    name.strip_prefix("checkers (level ")
        .and_then(|rest| rest.strip_suffix(')'))
        .and_then(|n| n.parse::<u8>().ok())
        .and_then(Level::new)
        .is_some()
}

/// `names` without the name a record gives a side the computer plays and that had none
/// ("checkers (level 9)"): that is the computer's seat, told by its level, not a
/// player's name, which the panel would show with the level a second time.
pub(crate) fn without_program_names(mut names: Players, seats: Seats) -> Players {
    for color in [Color::Black, Color::White] {
        let slot = match color {
            Color::Black => &mut names.black,
            Color::White => &mut names.white,
        };
        if seats.computer(color).is_some() && slot.as_deref().is_some_and(is_program_name) {
            *slot = None;
        }
    }
    names
}

/// The names a record gets: the names given, and for a side the computer plays with no
/// name given, "checkers (level N)".
pub(crate) fn record_names(names: &Players, seats: Seats) -> Players {
    let name = |color: Color| {
        names
            .name(color)
            .map(String::from)
            .or_else(|| seats.computer(color).map(program_name))
    };
    Players {
        black: name(Color::Black),
        white: name(Color::White),
    }
}

/// The `BlackType`/`WhiteType` of a side played at another terminal, across the network.
pub(crate) const REMOTE_TYPE: &str = "remote";

/// How the `Site` of a game held by `checkers host` begins (its address follows).
pub(crate) const HOST_SITE: &str = "checkers host ";

/// The record tags of this program's own that say who played each side, so `--resume`
/// restores the computer and its level: `BlackType`/`WhiteType` (`human` or `program`,
/// as in PGN) and, for the computer, `BlackLevel`/`WhiteLevel`. None between two people.
pub(crate) fn seat_tags(seats: Seats) -> Vec<(String, String)> {
    if seats.people() && seats.remote_side().is_none() {
        return Vec::new();
    }
    let mut tags = Vec::new();
    for color in Color::ALL {
        let player = seats.of(color);
        // "remote": played at another terminal (`checkers host --resume` finds the
        // side again; at one terminal it is a person's).
        let kind = match player {
            Player::Computer(_) => "program",
            Player::Remote => REMOTE_TYPE,
            Player::Person => "human",
        };
        tags.push((format!("{color}Type"), kind.to_string()));
        if let Some(level) = player.level() {
            tags.push((format!("{color}Level"), level.number().to_string()));
        }
    }
    tags
}

/// Who played each side, from a record's tags (see [`seat_tags`]); a record written
/// before those tags by this program names the computer "checkers (level N)".
pub(crate) fn seats_from_tags(tag: impl Fn(&str) -> Option<String>) -> Seats {
    let mut seats = Seats::PEOPLE;
    for color in Color::ALL {
        let level_tag = tag(&format!("{color}Level"))
            .and_then(|v| v.trim().parse::<u8>().ok())
            .and_then(Level::new);
        let player = match tag(&format!("{color}Type")).as_deref() {
            Some("program") => Player::Computer(level_tag.unwrap_or_default()),
            Some(_) => Player::Person,
            None => tag(color.name())
                .and_then(|name| {
                    let n = name.strip_prefix("checkers (level ")?.strip_suffix(')')?;
                    Level::new(n.parse().ok()?)
                })
                .map_or(Player::Person, Player::Computer),
        };
        seats.set(color, player);
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(n: u8) -> Level {
        Level::new(n).unwrap()
    }

    #[test]
    fn seats_survive_a_record() {
        for seats in [
            Seats::PEOPLE,
            Seats {
                black: Player::Person,
                white: Player::Computer(level(3)),
            },
            Seats {
                black: Player::Computer(level(10)),
                white: Player::Computer(level(1)),
            },
        ] {
            let tags = seat_tags(seats);
            let back = seats_from_tags(|name| {
                tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
            });
            assert_eq!(back, seats);
        }
    }

    #[test]
    fn an_older_record_names_the_computer() {
        let seats = seats_from_tags(|name| (name == "White").then(|| "checkers (level 3)".into()));
        assert_eq!(seats.white, Player::Computer(level(3)));
        assert_eq!(seats.black, Player::Person);
    }

    #[test]
    fn a_computer_without_a_name_is_named_after_its_level() {
        let seats = Seats {
            black: Player::Computer(level(4)),
            white: Player::Computer(level(2)),
        };
        let names = Players {
            black: None,
            white: Some("Chinook Jr".into()),
        };
        let named = record_names(&names, seats);
        assert_eq!(named.black.as_deref(), Some("checkers (level 4)"));
        assert_eq!(named.white.as_deref(), Some("Chinook Jr"));
        assert_eq!(seats.person_against_computer(), None);
    }
}
