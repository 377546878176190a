//! The card library: every catalogue the table owns, each version kept by its content hash.
//!
//! A set (`[set] id`) has one or more *versions*. A version is the catalogue's TOML text, kept
//! whole and keyed by the SHA-256 of that text; it is never changed or deleted while a match was
//! played with it. Adding an edited file of a set makes a new version, which new matches use; a
//! stored match names the version it was played with (`matches.catalogue_version`), and is
//! replayed from that version's text, so its replay, export and statistics never change — not
//! when the set is edited, and not when a newer build ships a changed demo set (the embedded demo
//! sets are library entries too, marked built in, synchronised when the store opens).
//!
//! A CSV file is stored as the TOML catalogue it was read as ([`Catalogue::load_csv`]), so every
//! version loads through one loader and exports as a file a friend can `add`.
//!
//! Card ids are unique per game across the library, because a tag (`TS1:<game>:<card>:<copy>`)
//! names no set: a set whose card id is already a *different* card of another set is refused,
//! naming both. The same card (same names, text and numbers) may be in two sets.
//!
//! ```
//! use tableside::store::Store;
//! use tableside::store::library::parse_catalogue;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let mut store = Store::open(&dir.path().join("t.sqlite3"))?;
//! let text = cards::catalogue::JAKEN_DEMO_TOML
//!     .replace("id = \"jaken-demo\"", "id = \"aki-jaken\"")
//!     .replace("\"JD", "\"AK");
//! let (cat, toml) = parse_catalogue("aki.toml", &text, None)?;
//! let added = store.add_catalogue(&cat, &toml, "aki.toml", 1)?;
//! assert_eq!(added.number, 1);
//! let (again, version) = store.catalogue("aki-jaken")?;
//! assert_eq!((again.cards.len(), version), (cat.cards.len(), added.version));
//! // The demo sets are in the library too, and cannot be removed.
//! assert!(store.library()?.iter().any(|s| s.set_id == "jaken-demo" && s.builtin));
//! assert!(store.remove_catalogue("jaken-demo").is_err());
//! # Ok(())
//! # }
//! ```

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use cards::catalogue::csv::{CsvError, CsvSet};
use cards::catalogue::{BUILTIN, Catalogue, CatalogueError};
use cards::core::GameId;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use sha2::{Digest, Sha256};

use super::error::{StoreError, sql};
use super::{MatchId, Store};

/// The largest catalogue file `catalogue add` reads (16 MiB: some 40,000 cards). A larger file is
/// refused before it is read.
pub const MAX_CATALOGUE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a catalogue could not be added, found, or removed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LibraryError {
    /// The file could not be read.
    #[error("cannot read {}: {cause}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        cause: std::io::Error,
    },
    /// The file is larger than [`MAX_CATALOGUE_BYTES`]; it was not read.
    #[error(
        "{} is {} MB, more than a catalogue may be ({} MB); it was not read",
        path.display(), size / 1_000_000, limit / 1_000_000
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes (at least this many).
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    #[error(
        "{file}:{line}:{column}: the file is not UTF-8 text (a spreadsheet's \"CSV UTF-8\" export \
         writes UTF-8; plain \"CSV\" in a Japanese Excel writes Shift_JIS)"
    )]
    NotUtf8 {
        /// The file.
        file: String,
        /// 1-based line of the first byte that is not UTF-8.
        line: usize,
        /// 1-based column (in characters) of that byte.
        column: usize,
    },
    /// The TOML catalogue has a problem.
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
    /// The CSV file has a problem.
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// The set id is already the id of a set of another game.
    #[error(
        "set `{set_id}` is already in the library as a {existing} set, not {game}: give this set \
         its own id"
    )]
    OtherGame {
        /// The set id.
        set_id: String,
        /// The game of the set being added.
        game: GameId,
        /// The game of the set in the library.
        existing: GameId,
    },
    /// The set id is the id of a demo set built into Tableside.
    #[error("`{set_id}` is the id of a demo set built into Tableside: give your set its own id")]
    BuiltinId {
        /// The set id.
        set_id: String,
    },
    /// A card id of the set is a different card of another set (a tag names no set).
    #[error("{0}")]
    CardClash(Box<CardClash>),
    /// No set with this id is in the library.
    #[error(
        "there is no set `{set_id}` in the card library (`tableside catalogue list` shows them)"
    )]
    UnknownSet {
        /// The set id asked for.
        set_id: String,
    },
    /// A built-in demo set cannot be removed.
    #[error("`{set_id}` is a demo set built into Tableside; it cannot be removed")]
    BuiltinRemove {
        /// The set id.
        set_id: String,
    },
    /// The set is in use: registered decks or stored matches hold it. Nothing was removed.
    #[error(
        "set `{set_id}` is in use and was not removed: {}",
        holders_en(decks, matches)
    )]
    InUse {
        /// The set id.
        set_id: String,
        /// The registered decks of the set, `owner's “name”`.
        decks: Vec<String>,
        /// The stored matches played with one of its versions.
        matches: Vec<MatchId>,
    },
    /// No catalogue version with this hash is stored.
    #[error("catalogue version {version} is not in the card library")]
    UnknownVersion {
        /// The version (content hash).
        version: String,
    },
    /// A stored version no longer loads (a newer build is stricter than the one that stored it).
    #[error(
        "the stored set `{set_id}` (version {}) cannot be read: {error}",
        short(version)
    )]
    Broken {
        /// The set id.
        set_id: String,
        /// The version.
        version: String,
        /// Why.
        error: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A card id of a set being added that another set uses for a different card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "card `{card}` of set `{set_id}` ({name}) is already card `{card}` of set `{other_set}` \
     ({other_name}), a different card: a tag names no set, so a {game} card id may stand for \
     one card only{}",
    if *more > 0 { format!(" ({more} more card ids clash)") } else { String::new() }
)]
pub struct CardClash {
    /// The game.
    pub game: GameId,
    /// The card id.
    pub card: String,
    /// The set being added.
    pub set_id: String,
    /// The card's name in the set being added.
    pub name: String,
    /// The set that has the id already.
    pub other_set: String,
    /// The card's name there.
    pub other_name: String,
    /// How many other card ids clash too.
    pub more: usize,
}

/// Who holds a set, in English or Japanese.
fn holders(decks: &[String], matches: &[MatchId], ja: bool) -> String {
    let mut parts = Vec::new();
    let (sep, decks_word, matches_word, stays, join) = if ja {
        (
            "、",
            "登録済みデッキ",
            "保存された対戦",
            "(対戦は削除されないので、そのセットも残ります)",
            "。",
        )
    } else {
        (
            ", ",
            "registered decks",
            "stored matches",
            " (a match is never deleted, so its set stays)",
            "; ",
        )
    };
    if !decks.is_empty() {
        parts.push(format!("{decks_word} {}", decks.join(sep)));
    }
    if !matches.is_empty() {
        let ids: Vec<String> = matches.iter().map(|m| format!("#{m}")).collect();
        parts.push(format!("{matches_word} {}{stays}", ids.join(sep)));
    }
    parts.join(join)
}

fn holders_en(decks: &[String], matches: &[MatchId]) -> String {
    holders(decks, matches, false)
}

impl LibraryError {
    /// The problem in Japanese.
    pub fn ja(&self) -> String {
        match self {
            LibraryError::Read { path, cause } => {
                format!("{} を読めません: {cause}", path.display())
            }
            LibraryError::TooLarge { path, size, limit } => format!(
                "{} は {} MB で、カタログの上限({} MB)を超えています。読み込みませんでした",
                path.display(),
                size / 1_000_000,
                limit / 1_000_000
            ),
            LibraryError::NotUtf8 { file, line, column } => format!(
                "{file}:{line}:{column}: UTF-8 のテキストではありません(表計算ソフトの「CSV UTF-8」で保存してください。日本語版 Excel の「CSV」は Shift_JIS で保存されます)"
            ),
            LibraryError::Catalogue(e) => e.ja(),
            LibraryError::Csv(e) => e.ja(),
            LibraryError::OtherGame {
                set_id,
                game,
                existing,
            } => format!(
                "セット `{set_id}` はすでに {existing} のセットとしてライブラリにあります({game} ではありません)。別のIDを付けてください"
            ),
            LibraryError::BuiltinId { set_id } => format!(
                "`{set_id}` は Tableside に組み込まれたデモセットのIDです。自分のセットには別のIDを付けてください"
            ),
            LibraryError::CardClash(c) => {
                let more = if c.more > 0 {
                    format!("(ほかに {} 件のIDが重なっています)", c.more)
                } else {
                    String::new()
                };
                format!(
                    "セット `{}` のカード `{}`({})は、セット `{}` の別のカード `{}`({})とIDが同じです。タグはセットを示さないので、カードIDはゲームごとに一つのカードにしか使えません{more}",
                    c.set_id, c.card, c.name, c.other_set, c.card, c.other_name
                )
            }
            LibraryError::UnknownSet { set_id } => format!(
                "カードライブラリにセット `{set_id}` はありません(`tableside catalogue list` で一覧できます)"
            ),
            LibraryError::BuiltinRemove { set_id } => {
                format!("`{set_id}` は組み込みのデモセットなので削除できません")
            }
            LibraryError::InUse {
                set_id,
                decks,
                matches,
            } => format!(
                "セット `{set_id}` は使われているので削除しませんでした: {}",
                holders(decks, matches, true)
            ),
            LibraryError::UnknownVersion { version } => {
                format!("カタログの版 {version} はカードライブラリにありません")
            }
            LibraryError::Broken {
                set_id,
                version,
                error,
            } => format!(
                "保存されたセット `{set_id}`(版 {})を読めません: {error}",
                short(version)
            ),
            LibraryError::Store(e) => e.to_string(),
        }
    }
}

/// The first 12 hex digits of a version's hash, as shown to players.
pub fn short(version: &str) -> &str {
    version.get(..12).unwrap_or(version)
}

/// The SHA-256 of a catalogue's text, as 64 lowercase hex digits: the id of its version.
pub fn content_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(64);
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// Reads a catalogue file (TOML or CSV) as text: refused before it is read when larger than
/// [`MAX_CATALOGUE_BYTES`], refused when not UTF-8 (naming the line and column of the first bad
/// byte). A leading byte-order mark is dropped.
pub fn read_catalogue_file(path: &Path) -> Result<String, LibraryError> {
    let read_err = |cause| LibraryError::Read {
        path: path.to_path_buf(),
        cause,
    };
    let file = std::fs::File::open(path).map_err(read_err)?;
    let size = file.metadata().map_err(read_err)?.len();
    let too_large = |size| LibraryError::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: MAX_CATALOGUE_BYTES,
    };
    if size > MAX_CATALOGUE_BYTES {
        return Err(too_large(size));
    }
    // A pipe or a growing file reports no honest size: never read past the limit.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_CATALOGUE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    if bytes.len() as u64 > MAX_CATALOGUE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let before = e.as_bytes().get(..good).unwrap_or_default();
        let before = std::str::from_utf8(before).unwrap_or_default();
        let (line, column) = cards::catalogue::line_col(before, before.len());
        LibraryError::NotUtf8 {
            file: path.display().to_string(),
            line,
            column,
        }
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// Checks a catalogue's text: TOML, or CSV when `csv` names the set the rows make up. Returns the
/// catalogue and the TOML text to store (the file itself, or the TOML a CSV was read as).
pub fn parse_catalogue(
    file: &str,
    text: &str,
    csv: Option<&CsvSet>,
) -> Result<(Catalogue, String), LibraryError> {
    match csv {
        None => Ok((Catalogue::load(file, text)?, text.to_owned())),
        Some(set) => Ok(Catalogue::load_csv(file, text, set)?),
    }
}

/// What adding a catalogue did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A set new to the library.
    New,
    /// A new version of a set already there; new matches use it.
    NewVersion {
        /// The version number it replaces as the current one.
        previous: u32,
    },
    /// An earlier version, current again.
    Restored,
    /// The current version already has exactly this content: nothing changed.
    Unchanged,
}

/// The result of [`Store::add_catalogue`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// The game.
    pub game: GameId,
    /// The set id.
    pub set_id: String,
    /// The version now current (content hash).
    pub version: String,
    /// Its number within the set (1 for the first version).
    pub number: u32,
    /// What changed.
    pub change: Change,
}

/// One stored version of a set.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct VersionInfo {
    /// The content hash.
    pub version: String,
    /// Its number within the set, from 1.
    pub number: u32,
    /// How many cards it has.
    pub cards: u32,
    /// How many ready-made decks it lists.
    pub decks: u32,
    /// The file it was added from (`embedded` for a built-in demo set).
    pub source: String,
    /// When it was added, ms since the Unix epoch (0 for a demo set stored by a migration).
    pub added_ms: i64,
    /// True for the version new matches use.
    pub current: bool,
    /// The stored matches played with it.
    pub matches: Vec<MatchId>,
}

/// One set of the library, as `catalogue list` shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SetEntry {
    /// The game.
    pub game: GameId,
    /// The set id.
    pub set_id: String,
    /// English name (of the current version).
    pub name_en: String,
    /// Japanese name.
    pub name_ja: String,
    /// True for a set made for this app (`[set] demo = true`).
    pub demo: bool,
    /// True for a demo set built into Tableside (listed, never removable).
    pub builtin: bool,
    /// The current version.
    pub version: String,
    /// Its number.
    pub number: u32,
    /// How many versions are stored.
    pub versions: u32,
    /// Cards of the current version.
    pub cards: u32,
    /// Ready-made decks of the current version.
    pub decks: u32,
    /// Registered decks of this set: `owner's “name”`, sorted.
    pub registered: Vec<String>,
    /// Stored matches played with any version of it, oldest first.
    pub matches: Vec<MatchId>,
}

/// A card's identity for the clash check: everything but the set it is in.
fn card_json(card: &cards::catalogue::Card) -> String {
    serde_json::to_string(card).unwrap_or_default()
}

/// Puts a version of a set into the library inside the caller's transaction: the version row
/// (if new), the set's current pointer, and the set's card ids. No checks (callers check).
fn store_version(
    tx: &Connection,
    cat: &Catalogue,
    text: &str,
    hash: &str,
    source: &str,
    builtin: bool,
    now_ms: i64,
) -> rusqlite::Result<u32> {
    let set_id = cat.set.id.as_str();
    let game = cat.game.as_str();
    let existing: Option<u32> = tx
        .query_row(
            "SELECT number FROM catalogue_versions WHERE hash = ?1",
            [hash],
            |row| row.get(0),
        )
        .optional()?;
    let number = match existing {
        Some(n) => n,
        None => {
            let next: u32 = tx.query_row(
                "SELECT coalesce(max(number), 0) + 1 FROM catalogue_versions WHERE set_id = ?1",
                [set_id],
                |row| row.get(0),
            )?;
            tx.execute(
                "INSERT INTO catalogue_versions (hash, game, set_id, number, name_en, name_ja, demo,
                     builtin, cards, decks, toml_text, source, added_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    hash,
                    game,
                    set_id,
                    next,
                    cat.set.name_en,
                    cat.set.name_ja,
                    cat.set.demo,
                    builtin,
                    i64::try_from(cat.cards.len()).unwrap_or(i64::MAX),
                    i64::try_from(cat.decks.len()).unwrap_or(i64::MAX),
                    text,
                    source,
                    now_ms
                ],
            )?;
            next
        }
    };
    tx.execute(
        "INSERT INTO catalogue_sets (set_id, game, current, builtin, updated_ms)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (set_id) DO UPDATE SET current = ?3, updated_ms = ?5",
        params![set_id, game, hash, builtin, now_ms],
    )?;
    tx.execute("DELETE FROM catalogue_cards WHERE set_id = ?1", [set_id])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO catalogue_cards (game, card, set_id, card_json) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for card in &cat.cards {
        insert.execute(params![game, card.id, set_id, card_json(card)])?;
    }
    Ok(number)
}

/// The embedded demo sets with their hashes (computed once per process).
fn builtin_versions() -> &'static [(String, &'static str, &'static str)] {
    static CELL: std::sync::OnceLock<Vec<(String, &'static str, &'static str)>> =
        std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        BUILTIN
            .iter()
            .map(|(file, text)| (content_hash(text), *file, *text))
            .collect()
    })
}

/// The embedded demo sets as the library lists them before any database exists.
pub fn builtin_entries() -> Vec<SetEntry> {
    let mut out: Vec<SetEntry> = builtin_versions()
        .iter()
        .filter_map(|(hash, file, text)| {
            let cat = Catalogue::load(file, text).ok()?;
            Some(SetEntry {
                game: cat.game,
                set_id: cat.set.id,
                name_en: cat.set.name_en,
                name_ja: cat.set.name_ja,
                demo: cat.set.demo,
                builtin: true,
                version: hash.clone(),
                number: 1,
                versions: 1,
                cards: u32::try_from(cat.cards.len()).unwrap_or(u32::MAX),
                decks: u32::try_from(cat.decks.len()).unwrap_or(u32::MAX),
                registered: Vec::new(),
                matches: Vec::new(),
            })
        })
        .collect();
    out.sort_by(|a, b| (a.game, &a.set_id).cmp(&(b.game, &b.set_id)));
    out
}

/// Brings the built-in demo sets of this build into the library: a demo text not stored yet
/// becomes the set's new current version (earlier versions stay for the matches played with
/// them). A demo set that does not load is skipped (the start screen reports it).
fn sync_builtin(tx: &Connection) -> rusqlite::Result<()> {
    for (hash, file, text) in builtin_versions() {
        let current: Option<String> = tx
            .query_row(
                "SELECT s.current FROM catalogue_versions v JOIN catalogue_sets s
                 ON s.set_id = v.set_id WHERE v.hash = ?1",
                [hash],
                |row| row.get(0),
            )
            .optional()?;
        if current.as_deref() == Some(hash.as_str()) {
            continue;
        }
        let Ok(cat) = Catalogue::load(file, text) else {
            continue;
        };
        store_version(tx, &cat, text, hash, "embedded", true, 0)?;
    }
    Ok(())
}

/// True when every built-in demo set of this build is the current version of its set.
fn builtin_in_sync(conn: &Connection) -> rusqlite::Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT current FROM catalogue_sets WHERE builtin = 1")?;
    let current: Vec<String> = stmt
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(builtin_versions()
        .iter()
        .all(|(hash, _, _)| current.contains(hash)))
}

/// The Rust part of schema step 3: the demo sets into the library, and every earlier match
/// pointed at the demo version of the set it names.
pub(super) fn backfill_v3(tx: &Connection) -> rusqlite::Result<()> {
    sync_builtin(tx)?;
    tx.execute(
        "UPDATE matches SET catalogue_version = (
             SELECT s.current FROM catalogue_sets s
             WHERE s.set_id = json_extract(matches.header_json, '$.catalogue')
               AND s.game = matches.game)
         WHERE catalogue_version IS NULL",
        [],
    )?;
    Ok(())
}

/// Brings the demo sets up to this build's on a read-write connection, writing only when one
/// changed.
pub(super) fn sync_builtin_on_open(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    if builtin_in_sync(conn).map_err(|e| sql(path, e))? {
        return Ok(());
    }
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| sql(path, e))?;
    sync_builtin(&tx).map_err(|e| sql(path, e))?;
    tx.commit().map_err(|e| sql(path, e))
}

impl Store {
    /// Adds a checked catalogue (from [`parse_catalogue`]) to the library; `text` is the TOML
    /// to store, `source` the file it came from.
    ///
    /// Refused, with nothing written: a set id of a built-in demo set or of another game's set,
    /// and a card id that is a different card of another set (both named). Adding the current
    /// version again changes nothing; an edited file becomes the set's new version.
    pub fn add_catalogue(
        &mut self,
        cat: &Catalogue,
        text: &str,
        source: &str,
        now_ms: i64,
    ) -> Result<Added, LibraryError> {
        self.writable()?;
        let path = self.path.clone();
        let hash = content_hash(text);
        let set_id = cat.set.id.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(&path, e))?;
        let existing: Option<(String, String, bool)> = tx
            .query_row(
                "SELECT game, current, builtin FROM catalogue_sets WHERE set_id = ?1",
                [&set_id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()
            .map_err(|e| sql(&path, e))?;
        let mut previous = None;
        if let Some((game, current, builtin)) = &existing {
            if *builtin {
                return Err(LibraryError::BuiltinId { set_id });
            }
            if game != cat.game.as_str() {
                return Err(LibraryError::OtherGame {
                    set_id,
                    game: cat.game,
                    existing: GameId::parse(game).unwrap_or(cat.game),
                });
            }
            if *current == hash {
                let number = version_number(&tx, &hash).map_err(|e| sql(&path, e))?;
                return Ok(Added {
                    game: cat.game,
                    set_id,
                    version: hash,
                    number,
                    change: Change::Unchanged,
                });
            }
            previous = Some(version_number(&tx, current).map_err(|e| sql(&path, e))?);
        }
        if let Some(clash) = card_clash(&tx, cat).map_err(|e| sql(&path, e))? {
            return Err(clash);
        }
        let known = tx
            .query_row(
                "SELECT 1 FROM catalogue_versions WHERE hash = ?1",
                [&hash],
                |_| Ok(()),
            )
            .optional()
            .map_err(|e| sql(&path, e))?
            .is_some();
        let number = store_version(&tx, cat, text, &hash, source, false, now_ms)
            .map_err(|e| sql(&path, e))?;
        tx.commit().map_err(|e| sql(&path, e))?;
        let change = match (previous, known) {
            (None, _) => Change::New,
            (Some(_), true) => Change::Restored,
            (Some(previous), false) => Change::NewVersion { previous },
        };
        Ok(Added {
            game: cat.game,
            set_id,
            version: hash,
            number,
            change,
        })
    }

    /// Every set of the library, built-in demo sets included, sorted by game and set id.
    pub fn library(&self) -> Result<Vec<SetEntry>, StoreError> {
        let path = &self.path;
        let decks = self.decks_by_set()?;
        let matches = self.matches_by_set()?;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT s.set_id, s.game, s.builtin, v.hash, v.number, v.name_en, v.name_ja,
                        v.demo, v.cards, v.decks,
                        (SELECT count(*) FROM catalogue_versions w WHERE w.set_id = s.set_id)
                 FROM catalogue_sets s JOIN catalogue_versions v ON v.hash = s.current",
            )
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([], |row| {
                let set_id: String = row.get(0)?;
                let game: String = row.get(1)?;
                Ok((
                    set_id,
                    game,
                    SetEntry {
                        game: GameId::Jaken,
                        set_id: String::new(),
                        builtin: row.get(2)?,
                        version: row.get(3)?,
                        number: row.get(4)?,
                        name_en: row.get(5)?,
                        name_ja: row.get(6)?,
                        demo: row.get(7)?,
                        cards: row.get(8)?,
                        decks: row.get(9)?,
                        versions: row.get(10)?,
                        registered: Vec::new(),
                        matches: Vec::new(),
                    },
                ))
            })
            .map_err(|e| sql(path, e))?;
        let mut out = Vec::new();
        for row in rows {
            let (set_id, game, mut entry) = row.map_err(|e| sql(path, e))?;
            let Some(game) = GameId::parse(&game) else {
                return Err(StoreError::Corrupt {
                    path: path.clone(),
                    detail: format!("library set `{set_id}` names an unknown game `{game}`"),
                });
            };
            entry.game = game;
            entry.registered = decks.get(&set_id).cloned().unwrap_or_default();
            entry.matches = matches.get(&set_id).cloned().unwrap_or_default();
            entry.set_id = set_id;
            out.push(entry);
        }
        out.sort_by(|a, b| (a.game, &a.set_id).cmp(&(b.game, &b.set_id)));
        Ok(out)
    }

    /// Registered decks per set id: `owner's “name”`, sorted.
    fn decks_by_set(&self) -> Result<BTreeMap<String, Vec<String>>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT json_extract(deck_json, '$.set'), owner, name FROM decks
                 ORDER BY owner, name",
            )
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([], |row| {
                Ok((
                    row.get::<_, Option<String>>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| sql(path, e))?;
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for row in rows {
            let (set, owner, name) = row.map_err(|e| sql(path, e))?;
            if let Some(set) = set {
                out.entry(set)
                    .or_default()
                    .push(format!("{owner}'s “{name}”"));
            }
        }
        Ok(out)
    }

    /// Stored matches per set id (by the version they were played with, or for a match without
    /// one, by the set its header names), oldest first.
    fn matches_by_set(&self) -> Result<BTreeMap<String, Vec<MatchId>>, StoreError> {
        let path = &self.path;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT coalesce(v.set_id, json_extract(m.header_json, '$.catalogue')), m.id
                 FROM matches m LEFT JOIN catalogue_versions v ON v.hash = m.catalogue_version
                 ORDER BY m.id",
            )
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([], |row| {
                Ok((row.get::<_, Option<String>>(0)?, MatchId(row.get(1)?)))
            })
            .map_err(|e| sql(path, e))?;
        let mut out: BTreeMap<String, Vec<MatchId>> = BTreeMap::new();
        for row in rows {
            let (set, id) = row.map_err(|e| sql(path, e))?;
            if let Some(set) = set {
                out.entry(set).or_default().push(id);
            }
        }
        Ok(out)
    }

    /// The versions of a set, oldest first.
    pub fn versions(&self, set_id: &str) -> Result<Vec<VersionInfo>, LibraryError> {
        let path = &self.path;
        let current: Option<String> = self
            .conn
            .query_row(
                "SELECT current FROM catalogue_sets WHERE set_id = ?1",
                [set_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| sql(path, e))?;
        let Some(current) = current else {
            return Err(LibraryError::UnknownSet {
                set_id: set_id.to_owned(),
            });
        };
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT hash, number, cards, decks, source, added_ms FROM catalogue_versions
                 WHERE set_id = ?1 ORDER BY number",
            )
            .map_err(|e| sql(path, e))?;
        let rows = stmt
            .query_map([set_id], |row| {
                Ok(VersionInfo {
                    version: row.get(0)?,
                    number: row.get(1)?,
                    cards: row.get(2)?,
                    decks: row.get(3)?,
                    source: row.get(4)?,
                    added_ms: row.get(5)?,
                    current: false,
                    matches: Vec::new(),
                })
            })
            .map_err(|e| sql(path, e))?;
        let mut out = Vec::new();
        let mut by_version = self
            .conn
            .prepare_cached("SELECT id FROM matches WHERE catalogue_version = ?1 ORDER BY id")
            .map_err(|e| sql(path, e))?;
        for row in rows {
            let mut v = row.map_err(|e| sql(path, e))?;
            v.current = v.version == current;
            v.matches = by_version
                .query_map([&v.version], |row| Ok(MatchId(row.get(0)?)))
                .and_then(|r| r.collect::<Result<Vec<_>, _>>())
                .map_err(|e| sql(path, e))?;
            out.push(v);
        }
        Ok(out)
    }

    /// The TOML text and game of a stored version.
    pub fn catalogue_text(&self, version: &str) -> Result<(GameId, String, String), LibraryError> {
        let path = &self.path;
        let row: Option<(String, String, String)> = self
            .conn
            .query_row(
                "SELECT game, set_id, toml_text FROM catalogue_versions WHERE hash = ?1",
                [version],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .optional()
            .map_err(|e| sql(path, e))?;
        let Some((game, set_id, text)) = row else {
            return Err(LibraryError::UnknownVersion {
                version: version.to_owned(),
            });
        };
        let game = GameId::parse(&game).ok_or_else(|| LibraryError::Broken {
            set_id: set_id.clone(),
            version: version.to_owned(),
            error: format!("unknown game `{game}`"),
        })?;
        Ok((game, set_id, text))
    }

    /// The catalogue of a stored version, loaded from its stored text.
    pub fn catalogue_at(&self, version: &str) -> Result<Catalogue, LibraryError> {
        let (_, set_id, text) = self.catalogue_text(version)?;
        Catalogue::load(&format!("{set_id} (version {})", short(version)), &text).map_err(|e| {
            LibraryError::Broken {
                set_id,
                version: version.to_owned(),
                error: e.to_string(),
            }
        })
    }

    /// The current version of a set: its catalogue and version hash.
    pub fn catalogue(&self, set_id: &str) -> Result<(Catalogue, String), LibraryError> {
        let version = self.current_version(set_id)?;
        Ok((self.catalogue_at(&version)?, version))
    }

    /// The current version (hash) of a set.
    pub fn current_version(&self, set_id: &str) -> Result<String, LibraryError> {
        self.conn
            .query_row(
                "SELECT current FROM catalogue_sets WHERE set_id = ?1",
                [set_id],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| sql(&self.path, e))?
            .ok_or_else(|| LibraryError::UnknownSet {
                set_id: set_id.to_owned(),
            })
    }

    /// Removes a set and all its versions. Refused, with nothing changed, for a built-in demo set
    /// and while a registered deck or a stored match holds the set (the holders are named).
    pub fn remove_catalogue(&mut self, set_id: &str) -> Result<SetEntry, LibraryError> {
        self.writable()?;
        let entry = self
            .library()?
            .into_iter()
            .find(|s| s.set_id == set_id)
            .ok_or_else(|| LibraryError::UnknownSet {
                set_id: set_id.to_owned(),
            })?;
        if entry.builtin {
            return Err(LibraryError::BuiltinRemove {
                set_id: set_id.to_owned(),
            });
        }
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| sql(&path, e))?;
        // Judged again under the write lock: a deck may have been registered meanwhile.
        let decks: Vec<String> = {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT owner, name FROM decks WHERE json_extract(deck_json, '$.set') = ?1
                     ORDER BY owner, name",
                )
                .map_err(|e| sql(&path, e))?;
            stmt.query_map([set_id], |row| {
                Ok(format!(
                    "{}'s “{}”",
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?
                ))
            })
            .and_then(|r| r.collect::<Result<Vec<_>, _>>())
            .map_err(|e| sql(&path, e))?
        };
        let matches: Vec<MatchId> = {
            let mut stmt = tx
                .prepare_cached(
                    "SELECT m.id FROM matches m LEFT JOIN catalogue_versions v
                     ON v.hash = m.catalogue_version
                     WHERE v.set_id = ?1 OR (m.catalogue_version IS NULL
                       AND json_extract(m.header_json, '$.catalogue') = ?1)
                     ORDER BY m.id",
                )
                .map_err(|e| sql(&path, e))?;
            stmt.query_map([set_id], |row| Ok(MatchId(row.get(0)?)))
                .and_then(|r| r.collect::<Result<Vec<_>, _>>())
                .map_err(|e| sql(&path, e))?
        };
        if !decks.is_empty() || !matches.is_empty() {
            return Err(LibraryError::InUse {
                set_id: set_id.to_owned(),
                decks,
                matches,
            });
        }
        for statement in [
            "DELETE FROM catalogue_cards WHERE set_id = ?1",
            "DELETE FROM catalogue_sets WHERE set_id = ?1",
            "DELETE FROM catalogue_versions WHERE set_id = ?1",
        ] {
            tx.execute(statement, [set_id]).map_err(|e| sql(&path, e))?;
        }
        tx.commit().map_err(|e| sql(&path, e))?;
        Ok(entry)
    }

    /// The catalogue version a stored match was played with (`None` for a match stored without
    /// one).
    pub fn match_catalogue_version(&self, id: MatchId) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row(
                "SELECT catalogue_version FROM matches WHERE id = ?1",
                [id.0],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| sql(&self.path, e))?
            .ok_or_else(|| StoreError::UnknownMatch {
                path: self.path.clone(),
                id,
            })
    }
}

fn version_number(conn: &Connection, hash: &str) -> rusqlite::Result<u32> {
    conn.query_row(
        "SELECT number FROM catalogue_versions WHERE hash = ?1",
        [hash],
        |row| row.get(0),
    )
}

/// The first card id of `cat` that another set of its game uses for a different card.
fn card_clash(conn: &Connection, cat: &Catalogue) -> rusqlite::Result<Option<LibraryError>> {
    let mut stmt = conn.prepare_cached(
        "SELECT set_id, card_json FROM catalogue_cards
         WHERE game = ?1 AND card = ?2 AND set_id != ?3 ORDER BY set_id",
    )?;
    let game = cat.game.as_str();
    let mut first: Option<CardClash> = None;
    let mut more = 0;
    for card in &cat.cards {
        let mine = card_json(card);
        let rows = stmt
            .query_map(params![game, card.id, cat.set.id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        for (other_set, other_json) in rows {
            if other_json == mine {
                continue;
            }
            if first.is_some() {
                more += 1;
                break;
            }
            let other_name = serde_json::from_str::<cards::catalogue::Card>(&other_json)
                .map(|c| names(&c.name_ja, &c.name_en))
                .unwrap_or_default();
            first = Some(CardClash {
                game: cat.game,
                card: card.id.clone(),
                set_id: cat.set.id.clone(),
                name: names(&card.name_ja, &card.name_en),
                other_set,
                other_name,
                more: 0,
            });
            break;
        }
    }
    Ok(first.map(|mut clash| {
        clash.more = more;
        LibraryError::CardClash(Box::new(clash))
    }))
}

fn names(ja: &str, en: &str) -> String {
    if ja == en {
        ja.to_owned()
    } else {
        format!("{ja} / {en}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Session, load_match};
    use cards::game::MatchHeader;
    use cards::matches::AnyMatch;

    fn own_jaken(set_id: &str, prefix: &str) -> (Catalogue, String) {
        let text = cards::catalogue::JAKEN_DEMO_TOML
            .replace("id = \"jaken-demo\"", &format!("id = \"{set_id}\""))
            .replace("\"JD", &format!("\"{prefix}"));
        parse_catalogue("own.toml", &text, None).unwrap()
    }

    fn demo_match(store: Store, set: &Catalogue) -> (Store, MatchId, String) {
        let header = MatchHeader::with_ready_made_decks(
            set.game,
            set,
            &["Aki", "Ben"],
            &[&set.decks[0].id, &set.decks[1].id],
        )
        .unwrap();
        let mut session = Session::start(store, header).unwrap();
        session
            .submit(&serde_json::json!({"input": "move", "move": {"type": "first-parent", "player": 0}}))
            .unwrap();
        let id = session.id();
        let log = log_text(session.game());
        (session.into_store(), id, log)
    }

    fn log_text(m: &dyn AnyMatch) -> String {
        m.log()
            .iter()
            .map(|l| l.text.clone())
            .collect::<Vec<_>>()
            .join("\n")
            + &serde_json::to_string(&m.state_json()).unwrap()
    }

    #[test]
    fn a_match_keeps_the_version_it_was_played_with_through_edits_and_a_changed_demo_set() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite3")).unwrap();
        let (own, text) = own_jaken("own", "QJ");
        let first = store.add_catalogue(&own, &text, "own.toml", 1).unwrap();
        assert_eq!((first.number, first.change.clone()), (1, Change::New));
        let (store, own_match, own_log) = demo_match(store, &own);
        let demo = Catalogue::builtin(GameId::Jaken).unwrap();
        let (mut store, demo_match_id, demo_log) = demo_match(store, &demo);

        // The set edited: a new version; the stored match replays as before.
        let edited = text.replace("name_en = \"", "name_en = \"New ");
        let (cat, edited) = parse_catalogue("own.toml", &edited, None).unwrap();
        let second = store.add_catalogue(&cat, &edited, "own.toml", 2).unwrap();
        assert_eq!(second.change, Change::NewVersion { previous: 1 });
        assert_eq!(
            log_text(load_match(&store, own_match).unwrap().as_ref()),
            own_log
        );
        // The first file added again: the first version is current again.
        let back = store.add_catalogue(&own, &text, "own.toml", 3).unwrap();
        assert_eq!((back.number, back.change), (1, Change::Restored));

        // A newer build ships a changed demo set: it becomes the demo's current version; the
        // match played with the old one still replays from the old text.
        let newer = cards::catalogue::JAKEN_DEMO_TOML.replace("Lantern Imp", "Lamp Imp");
        let newer_cat = Catalogue::load("x", &newer).unwrap();
        let hash = content_hash(&newer);
        store_version(&store.conn, &newer_cat, &newer, &hash, "embedded", true, 4).unwrap();
        assert_eq!(store.current_version("jaken-demo").unwrap(), hash);
        assert_eq!(
            log_text(load_match(&store, demo_match_id).unwrap().as_ref()),
            demo_log
        );
        let versions = store.versions("jaken-demo").unwrap();
        assert_eq!(versions.len(), 2);
        assert_eq!(versions[0].matches, [demo_match_id]);
        // Reopening with this build's demo makes it current again, the newer text stays stored.
        drop(store);
        let store = Store::open(&dir.path().join("t.sqlite3")).unwrap();
        assert_eq!(store.versions("jaken-demo").unwrap().len(), 2);
        assert!(store.versions("jaken-demo").unwrap()[0].current);
    }

    #[test]
    fn card_ids_are_unique_per_game_but_the_same_card_may_be_in_two_sets() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite3")).unwrap();
        // The demo's own card ids, with another card: refused, naming both.
        let (clash, text) = own_jaken("clash", "JD");
        let text = text.replacen("name_en = \"Lantern Imp\"", "name_en = \"Other\"", 1);
        let (clash2, text) = parse_catalogue("c.toml", &text, None).unwrap();
        let _ = clash;
        let err = store
            .add_catalogue(&clash2, &text, "c.toml", 1)
            .unwrap_err();
        assert!(
            matches!(&err, LibraryError::CardClash(c) if c.card == "JD01" && c.other_set == "jaken-demo"),
            "{err}"
        );
        assert!(store.current_version("clash").is_err(), "nothing stored");
        // The very same cards under another set id: allowed.
        let (same, text) = own_jaken("reprint", "JD");
        store.add_catalogue(&same, &text, "r.toml", 1).unwrap();
        // A set id of another game, or of a built-in set: refused.
        let mut other = same.clone();
        other.set.id = "reprint".into();
        other.game = GameId::Yomi;
        assert!(matches!(
            store.add_catalogue(&other, "x", "o.toml", 2),
            Err(LibraryError::OtherGame { .. })
        ));
        let mut demo = same;
        demo.set.id = "jaken-demo".into();
        assert!(matches!(
            store.add_catalogue(&demo, "y", "d.toml", 2),
            Err(LibraryError::BuiltinId { .. })
        ));
    }

    #[test]
    fn a_log_from_before_the_library_opens_with_the_demo_version_of_its_set() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        let demo = Catalogue::builtin(GameId::Jaken).unwrap();
        let header = MatchHeader::with_ready_made_decks(
            GameId::Jaken,
            &demo,
            &["Aki", "Ben"],
            &["lantern", "gale"],
        )
        .unwrap();
        {
            // A version 2 file, as the build before the library wrote it.
            let mut conn = Connection::open(&path).unwrap();
            super::super::schema::migrate(&mut conn, &path, &super::super::schema::MIGRATIONS[..2])
                .unwrap();
            conn.execute(
                "INSERT INTO matches (game, created_ms, header_json, status, entry_count, updated_ms)
                 VALUES ('jaken', 1, ?1, 'open', 0, 1)",
                [serde_json::to_string(&header).unwrap()],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO entries (match_id, seq, at_ms, input_json) VALUES (1, 0, 1, ?1)",
                [r#"{"input":"move","move":{"type":"first-parent","player":0}}"#],
            )
            .unwrap();
            conn.execute("UPDATE matches SET entry_count = 1 WHERE id = 1", [])
                .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let version = store.match_catalogue_version(MatchId(1)).unwrap().unwrap();
        assert_eq!(version, store.current_version("jaken-demo").unwrap());
        let m = load_match(&store, MatchId(1)).unwrap();
        assert_eq!(m.len(), 1);
        let entry = store
            .library()
            .unwrap()
            .into_iter()
            .find(|s| s.set_id == "jaken-demo")
            .unwrap();
        assert_eq!(entry.matches, [MatchId(1)]);
    }
}
