//! Play across terminals: the messages a host, a player joining it and spectators
//! exchange ([`protocol`]), sealed on a line keyed by the game's code, which is never
//! sent ([`secure`]), the host's connections ([`listener`]) and a joiner's line to the
//! host ([`link`]). The game itself is the runtime's: the host's runtime judges what
//! comes in, and a joiner's follows the host's game.

pub(crate) mod backlog;
pub(crate) mod guesses;
pub(crate) mod link;
pub(crate) mod listener;
pub(crate) mod openings;
pub(crate) mod protocol;
pub(crate) mod secure;
pub(crate) mod table;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

/// The port a host listens on unless told otherwise.
pub(crate) const DEFAULT_PORT: u16 = 4610;

/// Words a game's code is made of: short, common and unlike each other, so that a
/// code is easy to say across a room or type from a message.
const CODE_WORDS: [&str; 256] = [
    "acorn", "actor", "adobe", "agent", "alarm", "album", "alder", "alley", "amber", "angel",
    "anvil", "apple", "apron", "arbor", "arena", "arrow", "aspen", "atlas", "attic", "award",
    "bacon", "badge", "badger", "bagel", "baker", "bamboo", "banjo", "barley", "barn", "basil",
    "basin", "beach", "beacon", "bean", "bear", "beaver", "bench", "berry", "birch", "bison",
    "blade", "blaze", "board", "boat", "bonnet", "boot", "bottle", "brass", "bread", "brick",
    "bridge", "brook", "broom", "bucket", "bugle", "cabin", "cable", "cactus", "camel", "camera",
    "canal", "candle", "canoe", "canvas", "canyon", "carpet", "carrot", "castle", "cedar",
    "cellar", "chalk", "chapel", "cherry", "chess", "cider", "circus", "citrus", "clay", "cliff",
    "clock", "cloud", "clover", "coast", "cobalt", "cocoa", "comet", "copper", "coral", "cotton",
    "cougar", "crane", "crayon", "creek", "crown", "daisy", "delta", "desert", "donkey", "dragon",
    "drum", "dune", "eagle", "easel", "ember", "engine", "falcon", "feather", "fern", "ferry",
    "fiddle", "finch", "flag", "flint", "flute", "forest", "fossil", "fox", "galaxy", "garden",
    "garlic", "geyser", "ginger", "globe", "goose", "granite", "grape", "gravel", "grove",
    "guitar", "hammer", "harbor", "harp", "hazel", "helmet", "heron", "hill", "honey", "hornet",
    "horse", "igloo", "island", "ivory", "jacket", "jade", "jaguar", "jelly", "kayak", "kettle",
    "kitten", "koala", "ladder", "lagoon", "lantern", "larch", "lemon", "lentil", "letter", "lily",
    "linen", "lion", "lizard", "llama", "locket", "lotus", "lunar", "magnet", "mango", "maple",
    "marble", "marsh", "meadow", "melon", "meteor", "mirror", "mitten", "moose", "mosaic",
    "muffin", "nectar", "nickel", "noodle", "nova", "oasis", "ocean", "olive", "onyx", "orbit",
    "orchard", "otter", "owl", "oyster", "paddle", "panda", "parrot", "peach", "pearl", "pebble",
    "pencil", "pepper", "piano", "pickle", "pigeon", "pillow", "pilot", "pine", "planet", "plum",
    "pocket", "pony", "poppy", "potato", "pumpkin", "quartz", "quill", "rabbit", "radish", "raven",
    "ribbon", "river", "robin", "rocket", "rowan", "saddle", "salmon", "sandal", "satin", "scarf",
    "shell", "silver", "slate", "sparrow", "spruce", "storm", "sugar", "summit", "swan", "tablet",
    "teapot", "thunder", "tiger", "timber", "tomato", "topaz", "tulip", "tunnel", "turtle",
    "valley", "velvet", "violet", "walnut", "walrus", "willow", "window", "winter", "yacht",
    "zebra",
];

/// How many codes [`new_code`] can draw: two words and two groups of four digits,
/// 256² × 10⁸ (about 2^42.6).
#[cfg(test)]
pub(crate) const CODE_SPACE: u64 = 256 * 256 * 100_000_000;

/// A new game's code: two words and two groups of four digits ("maple-4821-river-0937"),
/// one of [`CODE_SPACE`], drawn from the system's randomness.
pub(crate) fn new_code() -> String {
    let mut bytes = [0u8; 10];
    crate::random::fill(&mut bytes);
    let [first, second, digits @ ..] = bytes;
    let digits = u64::from_le_bytes(digits) % 100_000_000;
    format!(
        "{}-{:04}-{}-{:04}",
        CODE_WORDS[usize::from(first)],
        digits / 10_000,
        CODE_WORDS[usize::from(second)],
        digits % 10_000
    )
}

/// A code as a person may type it (any case, spaces for dashes, spaces around), in
/// the form [`new_code`] writes.
pub(crate) fn normalize_code(code: &str) -> String {
    code.split(|c: char| c.is_whitespace() || c == '-')
        .filter(|part| !part.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// Whether two players' names read alike on a screen: the same but for case, spaces
/// at their ends, or the letters a font may show alike (`l`, `I` and `1`; `O` and
/// `0`). A joiner's name that reads as the host's is not taken, so that the chat and
/// the record tell the two apart.
pub(crate) fn names_look_alike(a: &str, b: &str) -> bool {
    crate::text::name_as_it_looks(a.trim()) == crate::text::name_as_it_looks(b.trim())
}

/// A seat token: 128 random bits, in hex, that the host gives the player it seats so
/// that the player's next connection proves the seat is theirs.
pub(crate) fn new_token() -> String {
    let mut bytes = [0u8; 16];
    crate::random::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What wakes the front end when something comes from the line (a peer's message, the
/// host's news), so that it is handled at once instead of at the next look: set once
/// by the front end, rung from the line's threads.
#[derive(Clone, Default)]
pub(crate) struct Bell(std::sync::Arc<std::sync::Mutex<Option<Waker>>>);

/// A front end's way of being woken from another thread (it should be cheap and never
/// block: it is called for every message).
pub(crate) type Waker = std::sync::Arc<dyn Fn() + Send + Sync>;

impl Bell {
    /// From now on, `waker` is called when something comes.
    pub(crate) fn set(&self, waker: Waker) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(waker);
    }

    /// Something came.
    pub(crate) fn ring(&self) {
        let waker = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some(waker) = waker {
            waker();
        }
    }
}

/// A waker that sends `message()` on `to`, once until the front end has taken it
/// ([`WakeOnce::taken`]): a flood of messages on the line wakes the front end once, not
/// once each.
pub(crate) fn wake_once<T: Send + 'static>(
    to: std::sync::mpsc::Sender<T>,
    message: impl Fn() -> T + Send + Sync + 'static,
) -> (Waker, WakeOnce) {
    let rung = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ringing = std::sync::Arc::clone(&rung);
    let waker: Waker = std::sync::Arc::new(move || {
        if !ringing.swap(true, std::sync::atomic::Ordering::SeqCst) {
            let _ = to.send(message());
        }
    });
    (waker, WakeOnce(rung))
}

/// The front end's side of [`wake_once`].
#[derive(Debug)]
pub(crate) struct WakeOnce(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl WakeOnce {
    /// The wake was taken: the next message on the line wakes the front end again.
    pub(crate) fn taken(&self) {
        self.0.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}

impl std::fmt::Debug for Bell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bell")
    }
}

/// The address another machine reaches a host listening at `bound` by: the address
/// of the interface the machine's traffic leaves by when it listens on all of them
/// (no packet is sent to find it), else the one it listens at.
pub(crate) fn reachable_address(bound: SocketAddr) -> SocketAddr {
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
    fn codes_are_two_words_and_two_groups_of_digits_and_differ() {
        let a = new_code();
        let parts: Vec<&str> = a.split('-').collect();
        assert_eq!(parts.len(), 4, "{a}");
        assert!(
            CODE_WORDS.contains(&parts[0]) && CODE_WORDS.contains(&parts[2]),
            "{a}"
        );
        for digits in [parts[1], parts[3]] {
            assert!(
                digits.len() == 4 && digits.chars().all(|c| c.is_ascii_digit()),
                "{a}"
            );
        }
        let codes: std::collections::HashSet<String> = (0..200).map(|_| new_code()).collect();
        assert_eq!(codes.len(), 200, "{codes:?}");
        assert_eq!(normalize_code(&a), a);
    }

    #[test]
    fn the_code_words_are_distinct_and_the_space_is_over_forty_bits() {
        let words: std::collections::HashSet<&str> = CODE_WORDS.iter().copied().collect();
        assert_eq!(words.len(), 256);
        assert!(
            CODE_WORDS
                .iter()
                .all(|w| w.len() <= 8 && w.chars().all(|c| c.is_ascii_lowercase()))
        );
        let distinct = words.len() as u64;
        assert_eq!(distinct * distinct * 100_000_000, CODE_SPACE);
        assert!((distinct * distinct * 100_000_000).ilog2() >= 40);
    }

    #[test]
    fn a_code_typed_loosely_is_the_code() {
        assert_eq!(
            normalize_code(" Maple 4821  River-0937 "),
            "maple-4821-river-0937"
        );
        assert_eq!(normalize_code("oak-1"), "oak-1");
    }

    #[test]
    fn tokens_are_128_random_bits() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
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
