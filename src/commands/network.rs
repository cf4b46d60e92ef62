//! `checkers host`, `join` and `watch`: a game across the network. The host holds the
//! game (its rules, clocks and records) and judges what the other terminals ask; the
//! joiner's and spectators' boards follow it. Nothing listens unless `host` runs.

use super::CommandError;
use super::play::{chosen_ballot, resumed_session, run_at_table, starting_session};
use crate::cli::{HostArgs, JoinArgs, PlayArgs, SideChoice};
use crate::net::link::{Greeting, Link};
use crate::net::listener::Connections;
use crate::net::protocol::Role;
use crate::net::{new_code, reachable_address};
use crate::rules::Color;
use crate::runtime::network::{Following, Hosting, joined_session};
use crate::runtime::{Saving, Table};
use crate::session::{BallotChoice, HOST_SITE, Player, REMOTE_TYPE, Session};
use crate::store::{self, GameFile};
use std::net::SocketAddr;
use std::time::Instant;

/// `checkers host`: the game the options ask for (`--load`: a record's game, played on
/// from its end; `--resume`: the last game played across the network, with the sides
/// as they were), listening for its other player.
pub(crate) fn host(args: &HostArgs) -> Result<(), CommandError> {
    let mut play = args.play.clone();
    let people = "a person plays each side (--resume continues one)";
    for (given, option, why) in [
        (play.black.is_some(), "--black", people),
        (play.white.is_some(), "--white", people),
        (play.level.is_some(), "--level", people),
        (play.setup, "--setup", people),
        (
            play.analyse,
            "--analyse",
            "the analysis board is one terminal's (checkers --analyse)",
        ),
    ] {
        if given {
            return Err(CommandError::Network(format!(
                "{option} does not apply to a game across the network: {why}"
            )));
        }
    }
    let (prefs, notices) = super::preferences::load_into(&mut play);
    if let Some(opening) = chosen_ballot(&play, store::now_unix()).map_err(CommandError::Ballot)?
        && play.match_rounds.is_none()
    {
        play.ballot = Some(BallotChoice::Number(opening.number));
        play.barred = true;
    }
    store::tidy_data_dir();
    let hosted = hosted(
        args,
        &play,
        "--port N picks another port, --port 0 a free one",
    )?;
    hosted.say_where();
    let mut notices = notices;
    notices.extend(hosted.notices);
    run_at_table(
        &play,
        &prefs,
        notices,
        hosted.session,
        hosted.saving,
        hosted.table,
    )
}

/// The game hosted across the network that plain mode's list of unfinished games chose
/// (`file`, claimed, holding `record`), hosted again with the options `play` and the
/// preferences `prefs`, as the home screen's list hosts it: at its former door, said
/// as `checkers host` says it.
pub(crate) fn host_again_plain(
    file: GameFile,
    record: crate::pdn::PdnGame,
    play: &PlayArgs,
    prefs: &crate::commands::preferences::Preferences,
) -> Result<(), CommandError> {
    let hosted = hosted_again(file, record, play)?;
    hosted.say_where();
    run_at_table(
        play,
        prefs,
        hosted.notices,
        hosted.session,
        hosted.saving,
        hosted.table,
    )
}

/// A game held at this terminal, listening for its other player: what [`host`] plays,
/// and what the home screen's "Host a game here" starts.
pub(crate) struct Hosted {
    /// The game, its seats set (a person here, the other player remote).
    pub(crate) session: Session,
    /// How it is kept: a new file, or the resumed game's.
    pub(crate) saving: Saving,
    /// The table listening for the other player.
    pub(crate) table: Table,
    /// The address shown to those who join.
    pub(crate) shown: SocketAddr,
    /// The address listened at (every interface, or one).
    pub(crate) bound: SocketAddr,
    /// The code they need.
    pub(crate) code: String,
    /// The side the one who joins plays.
    pub(crate) remote: Color,
    /// What the players are told of the door before the board opens: a resumed game
    /// at another port, or with a new code, than its boards come back to.
    pub(crate) notices: Vec<String>,
}

impl Hosted {
    /// Says on standard output where to join and watch, and whether every interface
    /// listens.
    fn say_where(&self) {
        println!(
            "Waiting for a player: checkers join {shown} --code {code} (they play {remote}; checkers watch {shown} --code {code} to watch)",
            shown = self.shown,
            code = self.code,
            remote = self.remote,
        );
        if self.bound.ip().is_unspecified() {
            println!(
                "Listening on every interface at port {}: --bind 127.0.0.1 keeps the game to this machine.",
                self.bound.port()
            );
        }
    }
}

/// The game `args` asks `checkers host` for, with the game options `play` (the
/// preferences and a drawn ballot applied), listening already. `port_hint` says how to
/// pick another port when this one is taken.
pub(crate) fn hosted(
    args: &HostArgs,
    play: &PlayArgs,
    port_hint: &str,
) -> Result<Hosted, CommandError> {
    let resumed = if play.resume {
        Some(last_network_game()?)
    } else {
        None
    };
    hosted_game(args, play, resumed, port_hint)
}

/// The game hosted across the network that the home screen's list of unfinished games
/// chose (`file`, claimed, holding `record`), hosted again as `checkers host --resume`
/// hosts it with the options `play`: at its former door, and at the address it listened
/// at (every interface, or one). So does a list of unfinished games in plain mode.
pub(crate) fn hosted_again(
    file: GameFile,
    record: crate::pdn::PdnGame,
    play: &PlayArgs,
) -> Result<Hosted, CommandError> {
    let args = HostArgs {
        port: None,
        bind: None,
        code: None,
        side: None,
        name: None,
        play: play.clone(),
    };
    hosted_game(
        &args,
        play,
        Some((file, record)),
        "checkers host --resume --port N",
    )
}

/// [`hosted`], with the game to resume (`resumed`) claimed already, if one is.
fn hosted_game(
    args: &HostArgs,
    play: &PlayArgs,
    resumed: Option<(GameFile, crate::pdn::PdnGame)>,
    port_hint: &str,
) -> Result<Hosted, CommandError> {
    let mut play = play.clone();
    play.black = None;
    play.white = None;
    play.level = None;
    // A resumed game's door: the code and port its boards come back to.
    let mut former = None;
    let (session, file, side_before) = if let Some((file, record)) = resumed {
        let side_before = Color::ALL.into_iter().find(|c| {
            record
                .tag(&format!("{c}Type"))
                .is_some_and(|t| t.trim() != REMOTE_TYPE)
        });
        former = Some(FormerDoor {
            door: store::door::load(file.path()),
            site_port: site_port(&record),
        });
        (
            resumed_session(&record, &play, &None),
            Some(file),
            side_before,
        )
    } else {
        let mut session = starting_session(&play, &None)?;
        // A record opened with --load is played on from its end, as in plain mode.
        if session.is_reviewing() {
            session.step(crate::session::Step::End);
            session.leave_review();
        }
        (session, None, None)
    };
    let mine = match args.side {
        Some(SideChoice::Black) => Color::Black,
        Some(SideChoice::White) => Color::White,
        Some(SideChoice::Random) if store::now_unix().is_multiple_of(2) => Color::Black,
        Some(SideChoice::Random) => Color::White,
        None => side_before.unwrap_or(Color::Black),
    };
    let mut session = session;
    let own_named = match mine {
        Color::Black => play.black_name.is_some(),
        Color::White => play.white_name.is_some(),
    };
    if let Some(name) = args.name.clone().filter(|_| !own_named) {
        session.name_player(mine, name);
    }
    let (connections, code, notices) = open_door(args, former.as_ref(), port_hint)?;
    let bound = connections.address();
    let shown = reachable_address(bound);
    let mut seats = session.seats();
    seats.set(mine, Player::Person);
    seats.set(!mine, Player::Remote);
    let assist = play.assist == Some(crate::cli::Switch::On);
    let session = session
        .with_seats(seats)
        .with_assist(assist)
        .with_site(format!("{HOST_SITE}{shown}"));
    let remote_named = match !mine {
        Color::Black => play.black_name.is_some(),
        Color::White => play.white_name.is_some(),
    };
    // A resumed game's chat is the table's again (kept beside its record by its host).
    let chat = file
        .as_ref()
        .map(|f| store::chat::load(f.path()))
        .unwrap_or_default();
    let hosting = Hosting::new(connections, shown, code.clone(), !mine)
        .with_remote_named(remote_named)
        .with_chat(chat);
    // The host keeps the game whatever its input: a game across the network is a
    // person's, and is resumed with `host --resume`.
    let saving = match file {
        Some(file) => Saving::Resumed(file),
        None => Saving::New,
    };
    Ok(Hosted {
        session,
        saving,
        table: Table::Host(Box::new(hosting)),
        notices,
        shown,
        bound,
        code,
        remote: !mine,
    })
}

/// Where a resumed game was reached before: its door as its host kept it, and the
/// port its record's `Site` names (a game hosted by an older checkers kept no door).
struct FormerDoor {
    /// The code and port kept beside the record, if they were.
    door: Option<store::door::Door>,
    /// The port of the address the record's `Site` gives.
    site_port: Option<u16>,
}

/// The host's door: listening at the address and port `args` names (every interface and
/// 4610 when none), or for a resumed game with none given, at its former ones (a free one, said, when that is
/// taken); with the code `args` gives, or the resumed game's former one, or a new one.
/// The words that tell the players what changed, if anything did: their boards come
/// back by themselves only to the same port and code.
fn open_door(
    args: &HostArgs,
    former: Option<&FormerDoor>,
    port_hint: &str,
) -> Result<(Connections, String, Vec<String>), CommandError> {
    // What changed from the former door: a new code, or the port taken (and why).
    let mut code_drawn = false;
    let mut port_taken = None;
    let kept_code = former.and_then(|f| f.door.as_ref()).map(|d| d.code.clone());
    let code = match (args.code.clone(), kept_code) {
        (Some(given), _) => given,
        (None, Some(kept)) => kept,
        (None, None) => {
            code_drawn = former.is_some();
            new_code()
        }
    };
    // The address listened at: the one given, or the resumed game's former one.
    let bind = args
        .bind
        .or_else(|| former.and_then(|f| f.door.as_ref()).and_then(|d| d.bind))
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let cannot = |bound: SocketAddr, e: std::io::Error| {
        CommandError::Network(format!("cannot listen at {bound}: {e} ({port_hint})"))
    };
    let former_port = former
        .and_then(|f| f.door.as_ref().map(|d| d.port).or(f.site_port))
        .filter(|port| *port != 0);
    let connections = match (args.port, former_port) {
        (Some(port), _) => {
            let bound = SocketAddr::new(bind, port);
            Connections::listen(bound, &code).map_err(|e| cannot(bound, e))?
        }
        (None, Some(port)) => {
            let bound = SocketAddr::new(bind, port);
            match Connections::listen(bound, &code) {
                Ok(connections) => connections,
                Err(why) => {
                    // The game goes on at another port, and everyone is told where.
                    let free = SocketAddr::new(bind, 0);
                    let connections =
                        Connections::listen(free, &code).map_err(|e| cannot(free, e))?;
                    let why = match why.kind() {
                        std::io::ErrorKind::AddrInUse => String::new(),
                        _ => format!(" ({why})"),
                    };
                    port_taken = Some((port, why));
                    connections
                }
            }
        }
        (None, None) => {
            let bound = SocketAddr::new(bind, crate::net::DEFAULT_PORT);
            Connections::listen(bound, &code).map_err(|e| cannot(bound, e))?
        }
    };
    let shown = reachable_address(connections.address());
    let mut notices = Vec::new();
    if code_drawn {
        notices.push(format!(
            "This game's code was not kept (an older checkers hosted it): its boards join \
             again with checkers join {shown} --code {code}"
        ));
    }
    if let Some((port, why)) = port_taken {
        notices.push(format!(
            "This game's port {port} is taken{why}: its boards join again with checkers \
             join {shown} --code {code}"
        ));
    }
    Ok((connections, code, notices))
}

/// The port of the address a hosted game's record names in its `Site`
/// (`checkers host 192.0.2.7:4610`).
fn site_port(record: &crate::pdn::PdnGame) -> Option<u16> {
    let site = record.tag("Site")?.strip_prefix(HOST_SITE)?;
    site.trim().parse::<SocketAddr>().ok().map(|at| at.port())
}

/// The newest unfinished game played across the network, claimed.
fn last_network_game() -> Result<(GameFile, crate::pdn::PdnGame), CommandError> {
    let all = store::games::saved_games().map_err(CommandError::GameOption)?;
    let unfinished = |g: &&store::games::SavedGame| !g.finished() && g.across_the_network();
    let Some(game) = all.iter().filter(unfinished).find(|g| g.resumable()) else {
        let open = all.iter().filter(unfinished).find(|g| g.open_elsewhere);
        return Err(CommandError::Network(match open {
            Some(game) => format!(
                "the unfinished game played across the network in {} is open in another \
                 window (another checkers host): go on with it there",
                crate::text::printable_path(&game.path)
            ),
            None => match store::games::joined_unfinished() {
                Some(joined) => format!("no game you hosted to resume; {joined}"),
                None => "no unfinished game played across the network to resume (checkers \
                         games lists the saved games)"
                    .to_string(),
            },
        }));
    };
    store::games::claim(game).map_err(CommandError::GameOption)
}

/// `checkers join` (as a player) and `checkers watch` (as a spectator): the host's game
/// on this terminal's board.
pub(crate) fn join(args: &JoinArgs, role: Role) -> Result<(), CommandError> {
    let mut screen = args.screen();
    let (prefs, notices) = super::preferences::load_into(&mut screen);
    let (session, table) = joined(args, role, |what| {
        eprintln!("{what}: trying again");
    })?;
    // The board says, once gone, whether the host keeps a game to go on with.
    run_at_table(&screen, &prefs, notices, session, Saving::Off, table)
}

/// The host's game that `args` names, joined as `role`: its session as the host told
/// it, and the table that follows it. A refusal that may pass (the seat still held by
/// a line being dropped), or a line dropped before the welcome, is told to `waiting`
/// (in a sentence) and tried again for a while.
pub(crate) fn joined(
    args: &JoinArgs,
    role: Role,
    waiting: impl FnMut(&str),
) -> Result<(Session, Table), CommandError> {
    let greeting = Greeting {
        code: args.code.clone(),
        role,
        name: args.name.clone(),
    };
    let address = args.host_address();
    // A player started again (after a crash) takes its own seat back with its token.
    let kept = (role == Role::Player)
        .then(|| store::seats::load(&address, &args.code))
        .flatten();
    // Each token a welcome gives a player is kept: the first, and a resumed host's new
    // one (a spectator's is its line's alone, and never takes the player's place).
    let keep_seat = {
        let (address, code) = (address.clone(), args.code.clone());
        Box::new(move |token: &str| {
            if role == Role::Player {
                store::seats::save(&address, &code, token);
            }
        })
    };
    let (link, welcome) = Link::join(&address, greeting, kept, keep_seat, waiting)
        .map_err(|e| CommandError::Network(e.to_string()))?;
    let session = joined_session(&welcome, Instant::now()).ok_or_else(|| {
        CommandError::Network("the host's record of the game does not read".to_string())
    })?;
    let following = Following::new(link, &welcome, copies_folder())
        .with_rejoin(address.to_string(), args.code.clone());
    let table = Table::Guest(Box::new(following));
    Ok((session, table))
}

/// Where a joiner keeps its own copies of the games' records: the data folder's
/// `network` folder, one file a game.
pub(crate) fn copies_folder() -> Option<std::path::PathBuf> {
    let dir = store::data_dir()?.join("network");
    store::files::create_folder(&dir).ok()?;
    Some(dir)
}
