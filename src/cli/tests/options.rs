//! The command line's options for the interactive game.

use crate::cli::Cli;
use crate::commands::play::{starting_session, tui_settings};
use crate::engine::Level;
use crate::session::{Player, Seats};
use clap::Parser;

#[test]
fn game_options_parse_into_settings() {
    let cli =
        Cli::try_parse_from(["checkers", "--flip", "--no-mouse", "--no-color", "--ascii"]).unwrap();
    assert!(cli.command.is_none(), "no subcommand starts the game");
    let settings = tui_settings(&cli.play, &Default::default());
    assert!(settings.flipped);
    assert!(!settings.mouse);
    assert!(!settings.theme.colored);
    assert_eq!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn defaults_are_black_at_the_bottom_with_mouse_and_unicode() {
    let settings = tui_settings(
        &Cli::try_parse_from(["checkers"]).unwrap().play,
        &Default::default(),
    );
    assert!(!settings.flipped);
    assert!(settings.mouse);
    assert_ne!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn players_default_to_people_at_level_five() {
    let cli = Cli::try_parse_from(["checkers"]).unwrap();
    let session = starting_session(&cli.play, &None).unwrap();
    assert_eq!(session.seats(), Seats::PEOPLE);
    assert_eq!(session.level().number(), 5);

    let cli = Cli::try_parse_from(["checkers", "--white", "cpu", "--level", "8"]).unwrap();
    let session = starting_session(&cli.play, &None).unwrap();
    assert_eq!(session.seats().black, Player::Person);
    assert_eq!(
        session.seats().white,
        Player::Computer(Level::new(8).unwrap())
    );
}

#[test]
fn unknown_options_are_refused() {
    assert!(Cli::try_parse_from(["checkers", "--colour"]).is_err());
}

/// A number option given text that is no whole number says so, with the numbers it
/// takes (it said "invalid digit found in string"); one out of range says the range.
#[test]
fn a_number_option_given_no_number_says_which_numbers_it_takes() {
    for (args, said) in [
        (
            &["--level", "x"][..],
            "'x' is not a whole number: give one from 1 to 10",
        ),
        (
            &["--level", "5.5"],
            "'5.5' is not a whole number: give one from 1 to 10",
        ),
        (
            &["--level", ""],
            "'' is not a whole number: give one from 1 to 10",
        ),
        (&["--level", "11"], "must be a whole number from 1 to 10"),
        // A negative number reaches the option's own check (clap took it for an
        // option: "unexpected argument '-1' found").
        (&["--level", "-1"], "must be a whole number from 1 to 10"),
        (&["--threads", "-2"], "must be a whole number from 1 to 256"),
        (
            &["--match", "two"],
            "'two' is not a whole number: give one from 1 to 100",
        ),
        (
            &["--threads", "x"],
            "'x' is not a whole number: give one from 1 to 256",
        ),
        (
            &["perft", "x"],
            "'x' is not a whole number: give one from 0 to 30",
        ),
        (&["host", "--port", "x"], "give one from 0 to 65535"),
        (
            &["host", "--port", "70000"],
            "must be a whole number from 0 to 65535",
        ),
        (
            &["analyse", "--movetime", "1s"],
            "'1s' is not a whole number: give one",
        ),
        (&["analyse", "--depth", "deep"], "give one from 1 to 64"),
        (
            &["analyse", "--movetime", "-5"],
            "must be a whole number from 1 to 86400000",
        ),
        (
            &["analyse", "--time-left", "-5"],
            "must be a whole number from 1 to 86400000",
        ),
        (
            &["analyse", "--hash", "-1"],
            "must be a whole number from 1 to 1024",
        ),
        (
            &["hub", "--hash", "-1"],
            "must be a whole number from 1 to 1024",
        ),
    ] {
        let error = Cli::try_parse_from(std::iter::once("checkers").chain(args.iter().copied()))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(said) && !error.contains("invalid digit"),
            "{args:?}: {error}"
        );
    }
    let cli = Cli::try_parse_from(["checkers", "--level", "3", "--match", "2"]).unwrap();
    assert_eq!(cli.play.level.map(|l| l.number()), Some(3));
}

#[test]
fn a_name_with_a_control_character_is_refused_where_it_is_given() {
    for option in ["--black-name", "--white-name"] {
        let error = Cli::try_parse_from(["checkers", option, "Ann\u{1b}[31m"])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(
                "a name cannot hold control characters or text-direction marks (character 4 is U+001B)"
            ),
            "{error}"
        );
    }
    let cli = Cli::try_parse_from(["checkers", "--black-name", "Anne-Marie Émile"]).unwrap();
    assert_eq!(cli.play.black_name.as_deref(), Some("Anne-Marie Émile"));
}

#[test]
fn a_game_number_that_is_not_one_is_refused_saying_how_games_are_counted() {
    let refusal = |value: &str| {
        Cli::try_parse_from(["checkers", "--load", "a.pdn", "--game", value])
            .unwrap_err()
            .to_string()
    };
    let zero = refusal("0");
    assert!(
        zero.contains("games are counted from 1: --game 1 is the file's first game"),
        "{zero}"
    );
    assert!(!zero.contains("4294967295"), "{zero}");
    let word = refusal("two");
    assert!(word.contains("'two' is not a game number"), "{word}");
    let cli = Cli::try_parse_from(["checkers", "--load", "a.pdn", "--game", "3"]).unwrap();
    assert_eq!(cli.play.game, Some(3));
}

#[test]
fn explore_reading_no_game_is_refused_saying_how_many_it_takes() {
    let refusal = |value: &str| {
        Cli::try_parse_from(["checkers", "explore", "--games-limit", value])
            .unwrap_err()
            .to_string()
    };
    let zero = refusal("0");
    assert!(
        zero.contains("0 games would read nothing: give 1 or more"),
        "{zero}"
    );
    let word = refusal("ten");
    assert!(word.contains("'ten' is not a number of games"), "{word}");
    let cli = Cli::try_parse_from(["checkers", "explore", "--games-limit", "3"]).unwrap();
    let Some(crate::cli::Command::Explore(args)) = cli.command else {
        panic!("explore read as another command");
    };
    assert_eq!(args.games_limit, Some(3));
}

/// `server --listen` takes a port alone (every interface, as the default), a host name
/// that resolves, or an address without a port (the default port); what is none of
/// these is refused with the forms it takes.
#[test]
fn server_listen_takes_a_port_alone_a_host_name_or_an_address() {
    use std::net::SocketAddr;
    let listen = |text: &str| -> Result<SocketAddr, String> {
        match Cli::try_parse_from(["checkers", "server", "--listen", text]) {
            Ok(cli) => match cli.command {
                Some(crate::cli::Command::Server(args)) => Ok(args.listen),
                other => panic!("not the server: {other:?}"),
            },
            Err(e) => Err(e.to_string()),
        }
    };
    assert_eq!(listen("4620"), Ok("0.0.0.0:4620".parse().unwrap()));
    assert_eq!(
        listen("127.0.0.1:5000"),
        Ok("127.0.0.1:5000".parse().unwrap())
    );
    assert_eq!(listen("127.0.0.1"), Ok("127.0.0.1:4620".parse().unwrap()));
    assert_eq!(listen("[::1]:5000"), Ok("[::1]:5000".parse().unwrap()));
    let local = listen("localhost:5000").unwrap();
    assert!(local.ip().is_loopback() && local.port() == 5000, "{local}");
    for bad in ["localhost:port", "local host:4620", ":"] {
        let said = listen(bad).unwrap_err();
        assert!(
            said.contains("localhost:4620") && said.contains("a port alone"),
            "{bad}: {said}"
        );
    }
}

/// A record of a game between two computers at two levels, as the program writes one.
const TWO_LEVELS: &str = "[Event \"?\"]\n[Black \"checkers (level 3)\"]\n\
[White \"checkers (level 5)\"]\n[BlackType \"program\"]\n[WhiteType \"program\"]\n\
[BlackLevel \"3\"]\n[WhiteLevel \"5\"]\n[Result \"*\"]\n\n1. 11-15 23-19 *\n";

#[test]
fn a_resumed_game_between_two_levels_gives_each_computer_its_own() {
    let record = crate::pdn::read_games(TWO_LEVELS).remove(0).unwrap();
    let level = |n| Player::Computer(Level::new(n).unwrap());
    let seats = |args: &[&str]| {
        let cli = Cli::try_parse_from(args).unwrap();
        crate::commands::play::resumed_session(&record, &cli.play, &None).seats()
    };
    let resumed = seats(&["checkers", "--resume"]);
    assert_eq!((resumed.black, resumed.white), (level(3), level(5)));
    // Seating the computers again without --level keeps each one's level ...
    let again = seats(&["checkers", "--resume", "--black", "cpu", "--white", "cpu"]);
    assert_eq!((again.black, again.white), (level(3), level(5)));
    // ... and --level puts both at the level it names.
    let both = seats(&["checkers", "--resume", "--level", "7"]);
    assert_eq!((both.black, both.white), (level(7), level(7)));
}

/// `--flip` turns the board round from where it would be: it said "Start with White at
/// the bottom", yet playing White against the computer, White is at the bottom without
/// it and Black with it.
#[test]
fn flip_help_says_it_turns_the_board_from_the_players_side() {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    let top = cli.render_long_help().to_string();
    let host = cli
        .find_subcommand_mut("host")
        .map(|command| command.render_long_help().to_string())
        .unwrap_or_default();
    for help in [top, host] {
        let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("--flip Turn the board round: without it, the side you play is at the bottom (Black when you play both sides or neither)"),
            "{help}"
        );
        assert!(!words.contains("Start with White at the bottom"), "{help}");
    }
}

/// `watch --help` speaks to a spectator, who has no side at the bottom and no panel of
/// their own and plays nothing (it had the player's words for --flip, --name, --plain and
/// --quiet); `join --help` keeps them.
#[test]
fn watch_help_speaks_to_a_spectator() {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    let help = |cli: &mut clap::Command, name: &str| {
        cli.find_subcommand_mut(name)
            .map(|command| command.render_long_help().to_string())
            .unwrap_or_default()
    };
    let watch = help(&mut cli, "watch");
    assert!(
        watch.contains("Start with White at the bottom of the board (Black is at the bottom")
            && watch.contains("only the players' names go on the record and panels")
            && !watch.contains("your side")
            && !watch.contains("other player's panel"),
        "{watch}"
    );
    // Its plain mode and bell are a spectator's too (they said "Play in plain line mode"
    // and "No bell at ten seconds left", as if the time were its own).
    let words = watch.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("--plain Watch in plain line mode")
            && words.contains("--quiet No bell when a player's clock reaches ten seconds")
            && !words.contains("Play in plain line mode")
            && !words.contains("ten seconds left"),
        "{watch}"
    );
    let join = help(&mut cli, "join");
    assert!(
        join.contains("your side is at the bottom") && join.contains("other player's panel"),
        "{join}"
    );
}

/// `--resume --clock 5+3` puts the resumed game on that clock, as a player who names a
/// clock wants, and the guide says so among the options that win on resume (it named
/// only --black, --white and --level).
#[test]
fn a_clock_given_with_resume_wins_and_the_guide_says_so() {
    let record = crate::pdn::read_games(TWO_LEVELS).remove(0).unwrap();
    let cli = Cli::try_parse_from(["checkers", "--resume", "--clock", "5+3"]).unwrap();
    let session = crate::commands::play::resumed_session(&record, &cli.play, &None);
    assert_eq!(
        session.time_left(crate::rules::Color::White),
        Some(std::time::Duration::from_secs(300))
    );
    let guide = include_str!("../../guide/playing.md").replace('\n', " ");
    let resume = guide
        .split("`--resume` (continue an unfinished game")
        .nth(1)
        .and_then(|rest| rest.split("a match is continued whole").next())
        .unwrap_or_default();
    assert!(
        resume.contains("`--clock` or `--move-timer`") && resume.contains("given now win"),
        "{resume}"
    );
}

/// The help speaks to a user: `analyse --search` named the code's constants
/// (`SearchParams::DEFAULT`), `--assist` listed "on: On" and "off: Off", `online
/// --plain` described plain mode in other words than every other command, and `games`
/// did not say what the "last 12. 9-14 22x15x8" of an unfinished game is.
#[test]
fn the_help_says_each_option_in_a_users_words() {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    let words = |help: String| help.split_whitespace().collect::<Vec<_>>().join(" ");
    let top = words(cli.render_long_help().to_string());
    let mut help = |name: &str| {
        words(
            cli.find_subcommand_mut(name)
                .map(|command| command.render_long_help().to_string())
                .unwrap_or_default(),
        )
    };
    let analyse = help("analyse");
    assert!(!analyse.contains("SearchParams"), "{analyse}");
    assert!(
        analyse.contains("- current: The search the computer plays with"),
        "{analyse}"
    );
    assert!(top.contains("--assist <on|off>"), "{top}");
    assert!(
        !top.contains("on: On") && !top.contains("off: Off"),
        "{top}"
    );
    let plain = "--plain Play in plain line mode: text in, text out (automatic when standard \
                 input or output is not a terminal, or TERM=dumb)";
    assert!(top.contains(plain), "{top}");
    let online = help("online");
    assert!(online.contains(plain), "{online}");
    let games = help("games");
    assert!(games.contains("\"last 12. 9-14 22x15x8\""), "{games}");
}

/// `--load` of a text that is no PDN at all (`/etc/passwd`) says so, naming the file and
/// what it begins with, and opens nothing (it opened a game that "stopped at unplayable
/// move 1. root:x:0:0..."); a PDN text with a bad move still opens up to that move.
#[test]
fn loading_a_file_that_is_not_pdn_says_so_and_opens_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let passwd = dir.path().join("passwd");
    std::fs::write(
        &passwd,
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
    )
    .unwrap();
    let path = passwd.to_str().unwrap();
    let cli = Cli::try_parse_from(["checkers", "--load", path]).unwrap();
    let error = starting_session(&cli.play, &None).unwrap_err().to_string();
    assert!(
        error.contains(path)
            && error.contains("not a PDN file")
            && error.contains("root:x:0:0:root:/root:/bin/bash"),
        "{error}"
    );

    let bad_move = dir.path().join("game.pdn");
    std::fs::write(&bad_move, "1. 11-15 24-20 2. 15-19 zz 1-0\n").unwrap();
    let cli = Cli::try_parse_from(["checkers", "--load", bad_move.to_str().unwrap()]).unwrap();
    let session = starting_session(&cli.play, &None).unwrap();
    assert_eq!(session.review_progress().1, 3);
}

/// The server's limits that must be positive are refused in words, not with clap's raw
/// range ("0 is not in 1..4294967295").
#[test]
fn a_server_limit_below_one_is_told_to_be_one_or_more() {
    for option in [
        "--max-connections",
        "--max-connections-per-address",
        "--message-rate",
        "--table-chat",
        "--queue",
    ] {
        for value in ["0", "-1"] {
            let err = Cli::try_parse_from(["checkers", "server", option, value]).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{option} {value}: {err}");
            let said = err.to_string();
            assert!(said.contains(option), "{said}");
            assert!(said.contains("must be 1 or more"), "{said}");
            assert!(!said.contains(".."), "{said}");
        }
    }
    assert!(Cli::try_parse_from(["checkers", "server", "--queue", "1"]).is_ok());
}

/// The server's timeouts are bounded: a huge `--login-timeout` overflowed the clock at
/// every connection (each login's task panicked); 0 and a huge one are refused in words.
#[test]
fn the_servers_timeouts_are_whole_numbers_in_a_range() {
    for (option, high) in [("--login-timeout", "3600"), ("--idle-timeout", "86400")] {
        for value in ["0", "-1", "18446744073709551615"] {
            let err = Cli::try_parse_from(["checkers", "server", option, value]).unwrap_err();
            assert_eq!(err.exit_code(), 2, "{option} {value}: {err}");
            let said = err.to_string();
            assert!(said.contains(option), "{said}");
            assert!(
                said.contains(&format!("must be a whole number from 1 to {high}")),
                "{said}"
            );
        }
        assert!(Cli::try_parse_from(["checkers", "server", option, high]).is_ok());
    }
}
