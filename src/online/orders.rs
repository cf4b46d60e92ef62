//! A moderator's orders as typed, in plain mode and in the full-screen lobby alike:
//! `mute NAME [MINUTES]`, `unmute NAME`, `kick NAME`, `ban NAME [REASON]`,
//! `unban NAME`; and anyone's private line, `tell NAME TEXT`.

use crate::server::protocol::{
    ClientMessage, MAX_REASON, MAX_SAID, MUTE_MINUTES, MUTE_MINUTES_MOST, Order,
};

/// The orders, for the help.
pub(crate) const ORDERS_HELP: &str = "mute NAME [MINUTES] (no chat at any table; 60 \
minutes unless given), unmute NAME, kick NAME (disconnected now; a game in play is \
adjourned, not lost), ban NAME [REASON] (kicked, and refused at every later login with \
the reason), unban NAME";

/// Whether `word` is an order's word.
pub(crate) fn is_order(word: &str) -> bool {
    matches!(word, "mute" | "unmute" | "kick" | "ban" | "unban")
}

/// The order a typed `line` gives, or what is wrong with it; none if its first word is
/// no order's.
pub(crate) fn typed(line: &str) -> Option<Result<Order, String>> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    if !is_order(word) {
        return None;
    }
    let rest = rest.trim();
    let (name, more) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (name, more) = (name.to_string(), more.trim());
    let usage = || {
        let takes = match word {
            "mute" => "mute NAME [MINUTES]",
            "ban" => "ban NAME [REASON]",
            "unmute" => "unmute NAME",
            "kick" => "kick NAME",
            _ => "unban NAME",
        };
        format!("{word} takes a player's name: {takes}")
    };
    if name.is_empty() {
        return Some(Err(usage()));
    }
    Some(match word {
        "mute" if more.is_empty() => Ok(Order::Mute {
            name,
            minutes: None,
        }),
        "mute" => match more.parse::<u32>() {
            Ok(minutes) if (1..=MUTE_MINUTES_MOST).contains(&minutes) => Ok(Order::Mute {
                name,
                minutes: Some(minutes),
            }),
            _ => Err(format!(
                "mute: MINUTES is 1 to {MUTE_MINUTES_MOST} ({MUTE_MINUTES} if not given), not {}",
                crate::text::printable(more, 20)
            )),
        },
        "ban" if more.chars().count() > MAX_REASON => Err(format!(
            "a ban's reason is at most {MAX_REASON} characters (this one has {})",
            more.chars().count()
        )),
        // As the server refuses it, said before it is sent.
        "ban" if crate::text::hidden_problem(more).is_some() => Err(format!(
            "ban {name}: the reason's {}",
            crate::text::hidden_problem(more).unwrap_or_default()
        )),
        "ban" => Ok(Order::Ban {
            name,
            reason: (!more.is_empty()).then(|| more.to_string()),
        }),
        _ if !more.is_empty() => Err(usage()),
        "unmute" => Ok(Order::Unmute { name }),
        "kick" => Ok(Order::Kick { name }),
        _ => Ok(Order::Unban { name }),
    })
}

/// The private line as typed, for the help.
pub(crate) const TELL_HELP: &str = "tell NAME TEXT (heard by NAME alone, wherever they are)";

/// The [`ClientMessage::Tell`] a typed `line` (`tell NAME TEXT`) gives, or what is
/// wrong with it; none if its first word is not `tell`. Checked as the server checks
/// it, so that what it would refuse is said before it is sent.
pub(crate) fn tell_typed(line: &str) -> Option<Result<ClientMessage, String>> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    if word != "tell" {
        return None;
    }
    let rest = rest.trim();
    let (name, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let text = text.trim();
    if name.is_empty() || text.is_empty() {
        return Some(Err(format!(
            "tell takes a player's name and what to tell them: {TELL_HELP}"
        )));
    }
    if let Some(problem) = crate::server::protocol::name_problem(name) {
        return Some(Err(format!("tell: nobody can be named so: {problem}")));
    }
    let count = text.chars().count();
    if count > MAX_SAID {
        return Some(Err(format!(
            "a line told is at most {MAX_SAID} characters (this one has {count})"
        )));
    }
    Some(Ok(ClientMessage::Tell {
        name: name.to_string(),
        text: text.to_string(),
    }))
}

/// The ignore list as typed, for the help.
pub(crate) const IGNORE_HELP: &str = "ignore NAME (their tells, lines at a table, \
challenges, seeks and rematch offers do not reach you; kept for your account), unignore NAME, ignore (whom you ignore)";

/// The [`ClientMessage::Ignore`] or [`ClientMessage::Unignore`] a typed `line`
/// (`ignore NAME`, `unignore NAME`, `ignore`) gives, or what is wrong with it; none if
/// its first word is neither. Checked as the server checks it, said before it is sent.
pub(crate) fn ignore_typed(line: &str) -> Option<Result<ClientMessage, String>> {
    let mut words = line.split_whitespace();
    let word = words.next()?;
    if word != "ignore" && word != "unignore" {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    let name = match (word, rest.as_slice()) {
        ("ignore", []) => return Some(Ok(ClientMessage::Ignore { name: None })),
        (_, [name]) => *name,
        _ => {
            return Some(Err(format!(
                "{word} takes one player's name: {IGNORE_HELP}"
            )));
        }
    };
    if let Some(problem) = crate::server::protocol::name_problem(name) {
        return Some(Err(format!("{word}: nobody can be named so: {problem}")));
    }
    let name = name.to_string();
    Some(Ok(if word == "ignore" {
        ClientMessage::Ignore { name: Some(name) }
    } else {
        ClientMessage::Unignore { name }
    }))
}

/// How a line `text` told by `name` is shown, made safe to print.
pub(crate) fn told_words(name: &str, text: &str) -> String {
    format!(
        "{} tells you: {}",
        crate::text::printable(name, 40),
        crate::text::printable(text, 400)
    )
}

/// What a player who is not a moderator is told when they give an order.
pub(crate) fn not_a_moderator(word: &str) -> String {
    format!(
        "{word} is for the server's moderators, and you are not one \
         (the server's operator makes moderators)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_read_with_their_minutes_and_reason_or_say_what_is_wrong() {
        let read = |line: &str| typed(line).expect("an order");
        assert_eq!(
            read("mute bob 30"),
            Ok(Order::Mute {
                name: "bob".into(),
                minutes: Some(30)
            })
        );
        assert_eq!(
            read("ban  bob   spam in every  game "),
            Ok(Order::Ban {
                name: "bob".into(),
                reason: Some("spam in every  game".into())
            })
        );
        assert_eq!(read("unban bob"), Ok(Order::Unban { name: "bob".into() }));
        assert!(read("mute bob soon").unwrap_err().contains("not soon"));
        assert!(read("kick").unwrap_err().contains("kick NAME"));
        assert!(read("kick bob now").is_err());
        assert!(read(&format!("ban bob {}", "x".repeat(201))).is_err());
        assert_eq!(typed("say mute bob"), None);
        let hidden = read("ban bob spam \u{202e}emag yreve ni").unwrap_err();
        assert!(
            hidden.starts_with(
                "ban bob: the reason's character 6 is U+202E (right-to-left override)"
            ),
            "{hidden}"
        );
    }

    #[test]
    fn ignore_reads_one_name_or_none_and_unignore_one_or_says_what_is_wrong() {
        assert_eq!(
            ignore_typed(" ignore  bob "),
            Some(Ok(ClientMessage::Ignore {
                name: Some("bob".into())
            }))
        );
        assert_eq!(
            ignore_typed("ignore"),
            Some(Ok(ClientMessage::Ignore { name: None }))
        );
        assert_eq!(
            ignore_typed("unignore bob"),
            Some(Ok(ClientMessage::Unignore { name: "bob".into() }))
        );
        assert_eq!(ignore_typed("ignored bob"), None);
        assert_eq!(ignore_typed("tell bob ignore"), None);
        let wrong = |line: &str| ignore_typed(line).expect("an ignore").unwrap_err();
        assert!(wrong("unignore").contains("unignore NAME"));
        assert!(wrong("ignore bob carol").contains("ignore NAME"));
        assert!(wrong("ignore a\u{202e}b").contains("U+202E"));
    }

    #[test]
    fn a_tell_reads_its_name_and_line_or_says_what_is_wrong() {
        assert_eq!(
            tell_typed(" tell alice  good game "),
            Some(Ok(ClientMessage::Tell {
                name: "alice".into(),
                text: "good game".into()
            }))
        );
        assert_eq!(tell_typed("say tell alice hi"), None);
        assert_eq!(tell_typed("teller alice hi"), None);
        let wrong = |line: &str| tell_typed(line).expect("a tell").unwrap_err();
        assert!(wrong("tell alice").contains("tell NAME TEXT"));
        assert!(wrong("tell a\u{202e}b hi").contains("U+202E"));
        assert!(wrong(&format!("tell alice {}", "x".repeat(201))).contains("at most 200"));
        assert_eq!(
            told_words("bob", "hi \u{1b}[2J"),
            "bob tells you: hi ?[2J",
            "shown safe"
        );
    }
}
