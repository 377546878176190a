//! A live match bound to the store: every input is made durable before it changes the match.

use crate::store::{MatchId, MatchRecord, MatchStatus, Store, StoreError};
use cards::catalogue::{Catalogue, CatalogueError};
use cards::core::{GameId, Outcome};
use cards::game::{MatchHeader, SetupError};
use cards::matches::{AnyMatch, Rejection, ReplayError, new_match};
use std::time::{SystemTime, UNIX_EPOCH};

/// Why an input did not go in.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The rules refused it (or it is impossible); nothing was stored.
    #[error(transparent)]
    Rejected(#[from] Rejection),
    /// The store could not make it durable; its message says whether it was undone or is in
    /// doubt (a failing disk).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a session could not start or resume.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The store failed. (Transparent: printed once, not "X: X".)
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The catalogue is missing or broken.
    #[error("{0}")]
    Catalogue(String),
    /// The match could not be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A finished match's stored outcome differs from the one its log replays to.
    #[error(
        "match {id}: the stored outcome differs from the replayed one — the log and the record disagree"
    )]
    Inconsistent {
        /// The match.
        id: MatchId,
    },
    /// The stored log could not be replayed. (`cause` is part of the message and deliberately
    /// not chained as `source()`, so it is printed once.)
    #[error("match {id}: {cause}")]
    Replay {
        /// The match.
        id: MatchId,
        /// Why.
        cause: ReplayError,
    },
}

impl From<CatalogueError> for SessionError {
    fn from(e: CatalogueError) -> Self {
        SessionError::Catalogue(e.to_string())
    }
}

/// Milliseconds since the Unix epoch (0 if the clock is before it).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The catalogue a match refers to when no store is at hand: an embedded demo set.
pub fn catalogue_for(game: GameId, set_id: &str) -> Result<Catalogue, SessionError> {
    let cat = Catalogue::builtin(game)?;
    if cat.set.id != set_id {
        return Err(SessionError::Catalogue(format!(
            "catalogue `{set_id}` for {game} is not available (this build has `{}`)",
            cat.set.id
        )));
    }
    Ok(cat)
}

/// The current version of a set of the card library, for a new match of `game`: the catalogue
/// and its version (content hash). Refused, naming the set, when it is not in the library or is
/// a set of another game.
pub fn library_catalogue(
    store: &Store,
    game: GameId,
    set_id: &str,
) -> Result<(Catalogue, String), SessionError> {
    let (cat, version) = store
        .catalogue(set_id)
        .map_err(|e| SessionError::Catalogue(e.to_string()))?;
    if cat.game != game {
        return Err(SessionError::Catalogue(format!(
            "set `{set_id}` of the card library is a {} set, not {game}",
            cat.game
        )));
    }
    Ok((cat, version))
}

/// The key of a stored match header that names the catalogue version (content hash) the match
/// is played with, beside `catalogue` (the set id). A header stored before the card library has
/// none; the store's record of the match names the version then.
pub const CATALOGUE_VERSION_KEY: &str = "catalogue_version";

/// The catalogue a stored match was played with: the version it names, from the library's
/// stored text (so a replay never changes when the set is edited or a build ships a changed
/// demo set); for a match stored without a version, the current version of its set.
pub fn match_catalogue(
    store: &Store,
    id: MatchId,
    header: &MatchHeader,
) -> Result<Catalogue, SessionError> {
    let stored = store.match_catalogue_version(id)?;
    let named = serde_json::from_str::<serde_json::Value>(&store.get(id)?.header_json)
        .ok()
        .and_then(|h| h.get(CATALOGUE_VERSION_KEY)?.as_str().map(str::to_owned));
    if let (Some(stored), Some(named)) = (&stored, &named)
        && stored != named
    {
        return Err(SessionError::Catalogue(format!(
            "match {id}: its header names catalogue version {named}, its record {stored}: the match log is inconsistent"
        )));
    }
    let catalogue = match stored.or(named) {
        Some(version) => store
            .catalogue_at(&version)
            .map_err(|e| SessionError::Catalogue(format!("match {id}: {e}")))?,
        None => library_catalogue(store, header.game, &header.catalogue)?.0,
    };
    Ok(catalogue)
}

/// Reads a stored match header.
pub fn header_of(store: &Store, id: MatchId) -> Result<MatchHeader, SessionError> {
    let record = store.get(id)?;
    serde_json::from_str(&record.header_json).map_err(|e| SessionError::Replay {
        id,
        cause: ReplayError::Header(e.to_string()),
    })
}

/// Rebuilds a stored match without a writable store (for `replay` and `log show`).
///
/// Everything is read in one snapshot ([`Store::read`]): a match being written is rebuilt as
/// it stood at one commit.
pub fn load_match(store: &Store, id: MatchId) -> Result<Box<dyn AnyMatch>, SessionError> {
    Ok(load_stored(store, id)?.game)
}

/// A stored match rebuilt from its log, with its record, both read in one snapshot.
pub struct Stored {
    /// The record as it stood when the log was read (entry count, status, outcome).
    pub record: MatchRecord,
    /// The match after every logged entry.
    pub game: Box<dyn AnyMatch>,
}

impl Stored {
    /// True while the match is being played (its record is open): what was read is the log so
    /// far, not a whole match.
    pub fn in_progress(&self) -> bool {
        self.record.status == MatchStatus::Open
    }
}

/// Rebuilds a stored match and reads its record in one snapshot ([`Store::read`]).
pub fn load_stored(store: &Store, id: MatchId) -> Result<Stored, SessionError> {
    store.read(|store| {
        let record = store.get(id)?;
        let header: MatchHeader =
            serde_json::from_str(&record.header_json).map_err(|e| SessionError::Replay {
                id,
                cause: ReplayError::Header(e.to_string()),
            })?;
        let catalogue = match_catalogue(store, id, &header)?;
        let mut game = new_match(header, &catalogue)?;
        game.reserve(usize::try_from(record.entries).unwrap_or(0));
        store.for_each_entry(id, |seq, _, json| {
            game.commit_json(json)
                .map_err(|rejection| SessionError::Replay {
                    id,
                    cause: ReplayError::Entry { seq, rejection },
                })
        })?;
        Ok(Stored { record, game })
    })
}

/// `tableside replay`: rebuilds a stored match and checks it against its record, in one
/// snapshot. A finished record whose outcome differs from the replayed one is refused (the log
/// and the record disagree); an open record is a match in progress, whatever its log says.
pub fn replay_stored(store: &Store, id: MatchId) -> Result<Stored, SessionError> {
    let stored = load_stored(store, id)?;
    if stored.record.status == MatchStatus::Finished {
        let outcome: Option<Outcome> = stored
            .record
            .outcome_json
            .as_deref()
            .and_then(|j| serde_json::from_str(j).ok());
        if outcome != stored.game.outcome() {
            return Err(SessionError::Inconsistent { id });
        }
    }
    Ok(stored)
}

/// A match being played, with its store.
pub struct Session {
    store: Store,
    id: MatchId,
    game: Box<dyn AnyMatch>,
    /// The status the store holds for the match (kept here so an input costs no extra read).
    stored_finished: bool,
}

impl Session {
    /// Starts a new match with the current version of the library set its header names, and
    /// records its header and that version.
    pub fn start(mut store: Store, header: MatchHeader) -> Result<Session, SessionError> {
        let (catalogue, version) = library_catalogue(&store, header.game, &header.catalogue)?;
        let game = new_match(header.clone(), &catalogue)?;
        // The stored header names the set and the version it is played with.
        let mut header_value =
            serde_json::to_value(&header).map_err(|e| SessionError::Catalogue(e.to_string()))?;
        if let Some(fields) = header_value.as_object_mut() {
            fields.insert(
                CATALOGUE_VERSION_KEY.to_owned(),
                serde_json::Value::String(version.clone()),
            );
        }
        let header_json = header_value.to_string();
        let id = store.create_match_with_catalogue(
            header.game.as_str(),
            &header_json,
            &version,
            now_ms(),
        )?;
        Ok(Session {
            store,
            id,
            game,
            stored_finished: false,
        })
    }

    /// Resumes a stored match exactly where its log ends.
    pub fn resume(store: Store, id: MatchId) -> Result<Session, SessionError> {
        let game = load_match(&store, id)?;
        let stored_finished = store.get(id)?.status == crate::store::MatchStatus::Finished;
        let mut session = Session {
            store,
            id,
            game,
            stored_finished,
        };
        // A kill between the last append and the status update leaves the record behind the
        // log; the log is the truth.
        session.sync_status()?;
        Ok(session)
    }

    /// Checks an input, stores it durably, then applies it; returns its sequence number. On any
    /// error nothing changes.
    pub fn submit(&mut self, input: &serde_json::Value) -> Result<u64, SubmitError> {
        let prepared = self.game.prepare_json(input)?;
        if self.stored_finished {
            // An undo or a correction after the end: the match is open again while it is logged.
            self.store.reopen(self.id, now_ms())?;
            self.stored_finished = false;
        }
        self.store
            .append(self.id, prepared.seq, &prepared.json, now_ms())?;
        self.game.commit_json(&prepared.json)?;
        self.sync_status()?;
        Ok(prepared.seq)
    }

    /// Marks the match finished (with its outcome) or open again after an undo.
    fn sync_status(&mut self) -> Result<(), StoreError> {
        match (self.game.outcome(), self.stored_finished) {
            (Some(outcome), false) => {
                let json = serde_json::to_string(&outcome).unwrap_or_default();
                self.store.finish(self.id, &json, now_ms())?;
                self.stored_finished = true;
            }
            (None, true) => {
                self.store.reopen(self.id, now_ms())?;
                self.stored_finished = false;
            }
            _ => {}
        }
        Ok(())
    }

    /// The match.
    pub fn game(&self) -> &dyn AnyMatch {
        self.game.as_ref()
    }

    /// The stored match's id.
    pub fn id(&self) -> MatchId {
        self.id
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Gives the store back (to start another match).
    pub fn into_store(self) -> Store {
        self.store
    }
}
