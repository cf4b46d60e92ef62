//! Play across terminals: the messages a host, a player joining it and spectators
//! exchange ([`protocol`]), the host's connections ([`listener`]) and a joiner's line
//! to the host ([`link`]). The game itself is the runtime's: the host's runtime judges
//! what comes in, and a joiner's follows the host's game.

pub mod link;
pub mod listener;
pub mod protocol;

use std::hash::{BuildHasher, Hasher};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

/// The port a host listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 4610;

/// Words a game's code is made of: easy to say across a room or type from a message.
const CODE_WORDS: [&str; 64] = [
    "maple", "cedar", "birch", "aspen", "alder", "hazel", "larch", "rowan", "olive", "lemon",
    "mango", "peach", "plum", "grape", "melon", "berry", "amber", "coral", "ivory", "pearl",
    "jade", "onyx", "topaz", "opal", "river", "brook", "delta", "ridge", "cliff", "dune", "marsh",
    "grove", "heron", "raven", "robin", "finch", "eagle", "otter", "badger", "bison", "lynx",
    "moose", "tiger", "zebra", "koala", "panda", "camel", "llama", "comet", "orbit", "nova",
    "lunar", "solar", "storm", "frost", "ember", "flint", "slate", "cobalt", "copper", "silver",
    "bronze", "velvet", "canvas",
];

/// A new game's code: a word and four digits ("maple-4821"), drawn from the system's
/// randomness (the hasher's keys are random for each process).
pub fn new_code() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    let n = hasher.finish();
    let word = CODE_WORDS[(n % CODE_WORDS.len() as u64) as usize];
    format!("{word}-{:04}", (n >> 32) % 10_000)
}

/// The address another machine reaches a host listening at `bound` by: the address
/// of the interface the machine's traffic leaves by when it listens on all of them
/// (no packet is sent to find it), else the one it listens at.
pub fn reachable_address(bound: SocketAddr) -> SocketAddr {
    if !bound.ip().is_unspecified() {
        return bound;
    }
    let outward = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| {
            socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            socket.local_addr()
        })
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified());
    SocketAddr::new(
        outward.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        bound.port(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_a_word_and_four_digits_and_differ() {
        let a = new_code();
        let (word, digits) = a.split_once('-').unwrap();
        assert!(CODE_WORDS.contains(&word), "{a}");
        assert!(
            digits.len() == 4 && digits.chars().all(|c| c.is_ascii_digit()),
            "{a}"
        );
        let codes: std::collections::HashSet<String> = (0..50).map(|_| new_code()).collect();
        assert!(codes.len() > 40, "{codes:?}");
    }

    #[test]
    fn a_host_on_every_interface_is_reached_at_a_real_address() {
        let any = SocketAddr::from((Ipv4Addr::UNSPECIFIED, 4610));
        let reached = reachable_address(any);
        assert!(!reached.ip().is_unspecified());
        assert_eq!(reached.port(), 4610);
        let local = SocketAddr::from((Ipv4Addr::LOCALHOST, 5000));
        assert_eq!(reachable_address(local), local);
    }
}
