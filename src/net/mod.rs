//! Play across terminals: the messages a host, a player joining it and spectators
//! exchange ([`protocol`]). The host's side (its runtime behind a listener) and the
//! joiner's and spectator's boards are still to come; the messages are their common
//! ground, versioned, bounded in length and parsed with a real serializer.

pub mod protocol;
