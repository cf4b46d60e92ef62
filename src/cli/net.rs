//! The options of a game across the network: `host`, `join` and `watch`.

use super::{PlayArgs, ScreenArgs};
use clap::Args;
use std::net::IpAddr;

/// `checkers host`. The game's options are those of a game at one terminal but for the
/// computer's (a person plays each side) and the analysis board's, which are left out of
/// its help and refused.
#[derive(Clone, Debug, Args)]
#[command(
    mut_arg("black", |a| a.hide(true)),
    mut_arg("white", |a| a.hide(true)),
    mut_arg("level", |a| a.hide(true)),
    mut_arg("setup", |a| a.hide(true)),
    mut_arg("analyse", |a| a.hide(true))
)]
pub(crate) struct HostArgs {
    /// The port to listen on (0: a free one, printed) [default: 4610, or with --resume
    /// the game's former port, a free one if that is taken].
    #[arg(long, value_parser = super::whole::<u16>(0, 65535))]
    pub(crate) port: Option<u16>,
    /// The address to listen at (0.0.0.0: every interface, so that other machines reach
    /// it; 127.0.0.1: this machine only) [default: 0.0.0.0, or with --resume the game's
    /// former one].
    #[arg(long, value_name = "ADDR")]
    pub(crate) bind: Option<IpAddr>,
    /// The word those who join need (printed; when not given, a new one is drawn, or with
    /// --resume the game's former one is kept).
    #[arg(long, value_name = "WORD", value_parser = parse_code)]
    pub(crate) code: Option<String>,
    /// The side this terminal plays; the one who joins plays the other [default: black,
    /// or with --resume the side played before].
    #[arg(long, value_enum)]
    pub(crate) side: Option<SideChoice>,
    /// Your name, for the record and the other player's panel (as --black-name or
    /// --white-name gives it for your side).
    #[arg(long, value_name = "NAME", value_parser = super::parse_name)]
    pub(crate) name: Option<String>,
    /// The game's options, as at one terminal.
    #[command(flatten)]
    pub(crate) play: PlayArgs,
}

/// The side the host plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SideChoice {
    /// Black, who moves first.
    Black,
    /// White.
    White,
    /// Drawn at random.
    Random,
}

/// `checkers join` and `checkers watch`.
#[derive(Clone, Debug, Args)]
pub(crate) struct JoinArgs {
    /// The host's address, as `checkers host` printed it (e.g. 192.0.2.7:4610); the
    /// port is 4610 when not given.
    pub(crate) address: String,
    /// The game's code, as the host printed it.
    #[arg(long, value_name = "WORD", value_parser = parse_code)]
    pub(crate) code: String,
    /// Your name, for the record and the other player's panel.
    #[arg(long, value_name = "NAME", value_parser = super::parse_name)]
    pub(crate) name: Option<String>,
    /// Turn the board round (your side is at the bottom without it).
    #[arg(long)]
    pub(crate) flip: bool,
    /// How the game is shown, as at one terminal.
    #[command(flatten)]
    pub(crate) screen: ScreenArgs,
}

impl JoinArgs {
    /// The host's address with the port, 4610 when not given.
    pub(crate) fn host_address(&self) -> String {
        let address = self.address.trim();
        let bare_ipv6 = address.matches(':').count() > 1 && !address.starts_with('[');
        if address
            .rsplit_once(':')
            .is_some_and(|(_, port)| port.parse::<u16>().is_ok())
            && !bare_ipv6
        {
            address.to_string()
        } else if bare_ipv6 {
            format!("[{address}]:{}", crate::net::DEFAULT_PORT)
        } else {
            format!("{address}:{}", crate::net::DEFAULT_PORT)
        }
    }

    /// The screen options, as a game at one terminal takes them.
    pub(crate) fn screen(&self) -> PlayArgs {
        PlayArgs {
            flip: self.flip,
            screen: self.screen.clone(),
            ..PlayArgs::default()
        }
    }
}

/// A game's code: 1 to 40 printable characters; spaces between its parts are taken
/// as dashes, as a code read out is typed ("maple 4821 river 0937").
pub(crate) fn parse_code(text: &str) -> Result<String, String> {
    let code = text.trim();
    let ok = !code.is_empty()
        && code.chars().count() <= 40
        && code.chars().all(|c| c.is_ascii_graphic() || c == ' ');
    if ok {
        Ok(crate::net::normalize_code(code))
    } else {
        Err("a code is 1 to 40 letters, digits or signs".to_string())
    }
}
