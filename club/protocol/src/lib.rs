//! The wire format between a Tableside kiosk and the club server (`tableside-club`).
//!
//! Both sides depend on this crate and nothing else of each other: the kiosk (`tableside`)
//! speaks it with a small blocking HTTP client, the server (`club`) answers it with axum.
//! Every body is JSON; every request type refuses unknown fields, so a typo or a newer
//! client is named instead of ignored.
//!
//! A kiosk authenticates with `Authorization: Bearer <token>` (a token printed once by
//! `tableside-club kiosk add NAME`; the server keeps only its SHA-256). It only connects out.
//!
//! | method and path | body | answer |
//! |---|---|---|
//! | `GET  /api/v1/progress` | — | [`Progress`]: what the server holds of this kiosk's matches |
//! | `PUT  /api/v1/kiosks/{kiosk}/matches/{match}` | [`PushRequest`] | [`PushResponse`], or [`Refusal`] |
//! | `GET  /api/v1/catalogues/{sha256}` | — | 204 when the server has it, 404 when not |
//! | `PUT  /api/v1/catalogues/{sha256}` | the catalogue's text | 204, or [`Refusal`] |
//! | `GET  /api/v1/pairings` | — | [`Pairings`]: tonight's pairings at this kiosk's tables |
//!
//! A push is idempotent by (kiosk, match, seq): entries the server already holds are compared
//! byte for byte and skipped when equal, so a kiosk that lost an answer just sends again.
//!
//! ```
//! use club_protocol::{PushEntry, PushRequest, catalogue_sha256};
//! let push = PushRequest {
//!     header_json: r#"{"game":"jaken","catalogue":"jaken-demo","players":[]}"#.into(),
//!     catalogue_sha256: catalogue_sha256("format = 1\n"),
//!     created_ms: 1_700_000_000_000,
//!     entries: vec![PushEntry { seq: 0, at_ms: 1_700_000_000_500, input_json: r#"{"input":"undo"}"#.into() }],
//! };
//! let text = serde_json::to_string(&push).unwrap();
//! assert_eq!(serde_json::from_str::<PushRequest>(&text).unwrap(), push);
//! assert!(serde_json::from_str::<PushRequest>(r#"{"header_json":"{}","extra":1}"#).is_err());
//! ```

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The largest request body the server reads (a push of [`MAX_ENTRIES_PER_PUSH`] entries), in
/// bytes. A larger body is refused with HTTP 413 before it is parsed.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The largest catalogue text the server takes, in bytes: the kiosk's card library keeps sets
/// up to this size (16 MiB), so every set a match was played with can be uploaded.
pub const MAX_CATALOGUE_BYTES: usize = 16 * 1024 * 1024;

/// The key of a stored match header that names the catalogue version (the [`catalogue_sha256`]
/// of its text) the match is played with, beside `catalogue` (the set id). A header stored
/// before the kiosk had a card library names none; then the push's `catalogue_sha256` alone
/// names it (and binds the match to it for ever).
pub const HEADER_CATALOGUE_VERSION: &str = "catalogue_version";

/// The most entries one push may carry; a kiosk sends a longer log in several pushes.
pub const MAX_ENTRIES_PER_PUSH: usize = 2_000;

/// The most entries one match may hold on the server (a longer log is refused, so one match
/// cannot cost the server without bound).
pub const MAX_ENTRIES_PER_MATCH: u64 = 200_000;

/// The path of a match push: `/api/v1/kiosks/{kiosk}/matches/{match}`.
pub fn push_path(kiosk: &str, kiosk_match: i64) -> String {
    format!(
        "/api/v1/kiosks/{}/matches/{kiosk_match}",
        percent_encode(kiosk)
    )
}

/// The path of a catalogue by its hash: `/api/v1/catalogues/{sha256}`.
pub fn catalogue_path(sha256: &str) -> String {
    format!("/api/v1/catalogues/{}", percent_encode(sha256))
}

/// The path of the kiosk's progress.
pub const PROGRESS_PATH: &str = "/api/v1/progress";

/// The path of the kiosk's pairings.
pub const PAIRINGS_PATH: &str = "/api/v1/pairings";

/// Percent-encodes a path segment (everything but unreserved ASCII).
pub fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The content hash a catalogue version is known by: SHA-256 of its text, 64 lowercase hex
/// digits. A kiosk uploads a catalogue's text once per hash.
pub fn catalogue_sha256(text: &str) -> String {
    sha256_hex(text.as_bytes())
}

/// SHA-256 of `bytes` as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// True for 64 lowercase hex digits (a [`catalogue_sha256`]).
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One stored match log entry as the kiosk holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushEntry {
    /// Its place in the log, from 0.
    pub seq: u64,
    /// When the kiosk appended it, ms since the Unix epoch (the kiosk's clock).
    pub at_ms: i64,
    /// The input exactly as the kiosk's store keeps it (JSON text; compared byte for byte).
    pub input_json: String,
}

/// A push of one match: its header and a run of consecutive entries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushRequest {
    /// The match header exactly as the kiosk's store keeps it (JSON text of
    /// `cards::game::MatchHeader`). Never changes for a match.
    pub header_json: String,
    /// The catalogue version the match was played with ([`catalogue_sha256`] of its text);
    /// the one the header names ([`HEADER_CATALOGUE_VERSION`]) when it names one.
    pub catalogue_sha256: String,
    /// When the kiosk created the match, ms since the Unix epoch (the kiosk's clock).
    pub created_ms: i64,
    /// Consecutive entries (`seq` rising by one), possibly none. They may start before the
    /// server's count (those are compared and skipped) but not after it (a gap).
    pub entries: Vec<PushEntry>,
}

/// The server's answer to an accepted push.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushResponse {
    /// How many entries of the match the server now holds (the next push starts here).
    pub stored: u64,
    /// True when the server's own replay says the match is over.
    pub finished: bool,
}

/// What a kiosk's matches look like on the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// The kiosk's name (as `tableside-club kiosk add` registered it).
    pub kiosk: String,
    /// (kiosk match id, entries held), sorted by match id.
    pub matches: Vec<(i64, u64)>,
}

/// Why the server refused a request. The same words in English and Japanese, for the kiosk's
/// screen and the server's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// What kind of refusal it is.
    pub code: RefusalCode,
    /// The reason, in English.
    pub reason_en: String,
    /// The reason, in Japanese.
    pub reason_ja: String,
    /// The entry it concerns, if one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// For a gap: how many entries the server holds (push again from there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<u64>,
}

/// The kinds of refusal. A kiosk retries only [`RefusalCode::Gap`] (from `stored`) and
/// [`RefusalCode::CatalogueMissing`] (after uploading it); the others need a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalCode {
    /// No token, or a token the server does not know (HTTP 401).
    Unauthorized,
    /// The token belongs to another kiosk than the path names (HTTP 403).
    ForeignKiosk,
    /// The body is not JSON of the expected shape, or a field is out of range (HTTP 400).
    Malformed,
    /// The body is larger than [`MAX_BODY_BYTES`] ([`MAX_CATALOGUE_BYTES`] for a catalogue)
    /// (HTTP 413).
    TooLarge,
    /// The server lacks the catalogue the match names: upload it, then push again (HTTP 409).
    CatalogueMissing,
    /// The entries start after the server's count (HTTP 409); `stored` says where to start.
    Gap,
    /// An entry or the header differs from what the server already holds (HTTP 422).
    Rewrite,
    /// The rules core rejects an entry, or the header cannot set a match up (HTTP 422).
    Rejected,
    /// The server cannot verify the match with what it is given: the header names another
    /// catalogue version than the push, or an uploaded catalogue claims a built-in demo set's id
    /// without being that demo set's text in the server's build (HTTP 422).
    Unverifiable,
    /// No such thing (HTTP 404).
    NotFound,
    /// The server failed (its database is unreachable, say); try again later (HTTP 503).
    Unavailable,
}

impl RefusalCode {
    /// The HTTP status the server answers with.
    pub fn status(self) -> u16 {
        match self {
            RefusalCode::Unauthorized => 401,
            RefusalCode::ForeignKiosk => 403,
            RefusalCode::Malformed => 400,
            RefusalCode::TooLarge => 413,
            RefusalCode::CatalogueMissing | RefusalCode::Gap => 409,
            RefusalCode::Rewrite | RefusalCode::Rejected | RefusalCode::Unverifiable => 422,
            RefusalCode::NotFound => 404,
            RefusalCode::Unavailable => 503,
        }
    }

    /// The stable text of the code (`catalogue-missing`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalCode::Unauthorized => "unauthorized",
            RefusalCode::ForeignKiosk => "foreign-kiosk",
            RefusalCode::Malformed => "malformed",
            RefusalCode::TooLarge => "too-large",
            RefusalCode::CatalogueMissing => "catalogue-missing",
            RefusalCode::Gap => "gap",
            RefusalCode::Rewrite => "rewrite",
            RefusalCode::Rejected => "rejected",
            RefusalCode::Unverifiable => "unverifiable",
            RefusalCode::NotFound => "not-found",
            RefusalCode::Unavailable => "unavailable",
        }
    }
}

/// Tonight's pairings at a kiosk's tables, offered on its start screen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairings {
    /// The open pairings at this kiosk's tables, by event, round and table.
    pub pairings: Vec<Pairing>,
}

/// One pairing of a club night's round, at one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pairing {
    /// The event's id on the server.
    pub event: i64,
    /// The event's name.
    pub event_name: String,
    /// The round, from 1.
    pub round: u32,
    /// The table number, from 1.
    pub table: u32,
    /// The game (`cards` short id, e.g. `jaken`).
    pub game: String,
    /// The two players' names, first seat first.
    pub players: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_sha256_hex() {
        // The SHA-256 test vector of "abc" (FIPS 180-2).
        assert_eq!(
            catalogue_sha256("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_sha256_hex(&catalogue_sha256("")));
        assert!(!is_sha256_hex("BA7816BF"));
        assert!(!is_sha256_hex(&"g".repeat(64)));
    }

    #[test]
    fn paths_encode_their_segments() {
        assert_eq!(
            push_path("table 1/ä", 7),
            "/api/v1/kiosks/table%201%2F%C3%A4/matches/7"
        );
        assert_eq!(catalogue_path("ab"), "/api/v1/catalogues/ab");
    }

    #[test]
    fn unknown_fields_are_named() {
        let e = serde_json::from_str::<PushEntry>(r#"{"seq":0,"at_ms":1,"input_json":"{}","x":1}"#)
            .unwrap_err();
        assert!(e.to_string().contains("`x`"), "{e}");
    }

    #[test]
    fn codes_have_statuses_and_stable_names() {
        assert_eq!(RefusalCode::Gap.status(), 409);
        assert_eq!(
            serde_json::to_string(&RefusalCode::CatalogueMissing).unwrap(),
            "\"catalogue-missing\""
        );
        assert_eq!(RefusalCode::CatalogueMissing.as_str(), "catalogue-missing");
    }
}
