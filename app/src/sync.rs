//! The kiosk's club sync: a named background thread that pushes every match to the club server
//! (`tableside-club`, the wire format in `club_protocol`), offline-first.
//!
//! - **The SQLite log stays the truth.** The thread only reads the store (its own read-only
//!   connection); it never changes a match. With no `[club]` in the config it does not exist.
//! - **It only connects out.** The kiosk listens on no port: the thread asks the server what it
//!   holds (`GET /api/v1/progress`), then pushes what is missing, match by match, in runs of at
//!   most [`CHUNK`] entries (`PUT /api/v1/kiosks/{kiosk}/matches/{id}`), and fetches tonight's
//!   pairings for the start screen.
//! - **Idempotent by (kiosk, match, seq), resumable after any cut.** The server compares the
//!   entries it already has byte for byte and skips them, so an answer lost on the way is just a
//!   repeat. After any failure the thread asks for the progress again before pushing, so it
//!   resumes exactly where the server stands (even a server restored from an old backup).
//! - **Capped backoff.** When the club is unreachable (or its database is), the thread waits 1 s,
//!   2 s, 4 s, … at most [`SyncOptions::max_backoff`] (60 s) between tries, and the screen says
//!   "club unreachable since 19:02". A push the server refuses for good (a rewritten entry, an
//!   entry the rules reject) is not retried until the match grows; the screen names it.
//! - **Catalogues once per hash.** A match is played with one version of a set of the card
//!   library (`crate::store::library`), named by the SHA-256 of the set's TOML text; the push
//!   names that version, and when the server lacks it, the thread uploads the text the store
//!   keeps of it once and pushes again, so the server replays the match with exactly the cards
//!   it was played with — the shop's own sets as much as the demo sets.
//!
//! ```no_run
//! use tableside::config::Club;
//! use tableside::sync::{SyncOptions, SyncService};
//! let club = Club { url: "https://club.example".into(), token: "tsk_…".into() };
//! let sync = SyncService::start(&club, "tableside.sqlite3".into(), SyncOptions::default())?;
//! println!("{} matches waiting", sync.state().waiting);
//! # Ok::<(), tableside::sync::SyncError>(())
//! ```

use crate::config::Club;
use crate::store::{MatchId, Store, StoreError};
use cards::game::MatchHeader;
use club_protocol::{
    PAIRINGS_PATH, PROGRESS_PATH, Pairing, Pairings, Progress, PushEntry, PushRequest,
    PushResponse, Refusal, RefusalCode, catalogue_path, catalogue_sha256, push_path,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Entries per push.
pub const CHUNK: usize = 500;

/// Why the sync could not start.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    /// The `[club]` section is not usable.
    #[error("{0}")]
    Config(String),
    /// The thread could not be started.
    #[error("cannot start the club sync thread: {0}")]
    Thread(#[from] std::io::Error),
}

/// Checks a `[club]` section: an `http(s)://` address and a `tsk_` token.
pub fn check_club(club: &Club) -> Result<(), String> {
    let url = club.url.trim();
    if !(url.starts_with("https://") || url.starts_with("http://")) || url.len() < 10 {
        return Err(format!(
            "field `url`: `{url}` is not an address like https://club.example"
        ));
    }
    if !club.token.starts_with("tsk_") || club.token.len() < 20 {
        return Err(
            "field `token`: give the token `tableside-club kiosk add` printed (it starts with tsk_)"
                .into(),
        );
    }
    Ok(())
}

/// How the thread paces itself (tests make it quicker).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncOptions {
    /// Between checks of the store when everything is pushed.
    pub poll: Duration,
    /// The first wait after a failure.
    pub min_backoff: Duration,
    /// The longest wait after failures.
    pub max_backoff: Duration,
    /// How long one request may take.
    pub timeout: Duration,
    /// Between fetches of the pairings.
    pub pairings_every: Duration,
}

impl Default for SyncOptions {
    fn default() -> Self {
        SyncOptions {
            poll: Duration::from_secs(2),
            min_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(60),
            timeout: Duration::from_secs(20),
            pairings_every: Duration::from_secs(10),
        }
    }
}

/// What the sync knows now, for the screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SyncState {
    /// The kiosk's name on the server, once it answered.
    pub kiosk: Option<String>,
    /// Matches with entries the server does not have yet (refused ones not counted).
    pub waiting: usize,
    /// Matches wholly on the server.
    pub synced: usize,
    /// Since when (ms since the Unix epoch) the club cannot be reached; `None` while it can.
    pub unreachable_since: Option<i64>,
    /// The last problem, in English, when there is one.
    pub last_error: Option<String>,
    /// Matches the server refused for good, with its reason (by match id).
    pub refused: Vec<(MatchId, Refusal)>,
    /// Tonight's pairings at this kiosk's tables.
    pub pairings: Vec<Pairing>,
    /// Completed sync rounds (for tests: "at least one round after X").
    pub rounds: u64,
    /// The last time every match was on the server (ms since the Unix epoch).
    pub last_synced_ms: Option<i64>,
}

struct Shared {
    state: Mutex<SyncState>,
    wake: Mutex<bool>,
    cond: Condvar,
    stop: AtomicBool,
    waker: Mutex<Option<Box<dyn Fn() + Send>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The running sync thread (`tableside-club-sync`). Dropping it stops the thread.
pub struct SyncService {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

static INSTALLED: OnceLock<SyncService> = OnceLock::new();

/// Makes `service` the one the window shows (once per process; later calls are ignored).
pub fn install(service: SyncService) {
    let _ = INSTALLED.set(service);
}

/// The sync the window shows, if the config has a `[club]`.
pub fn installed() -> Option<&'static SyncService> {
    INSTALLED.get()
}

impl SyncService {
    /// Starts the thread for the store at `db_path`.
    pub fn start(
        club: &Club,
        db_path: PathBuf,
        options: SyncOptions,
    ) -> Result<SyncService, SyncError> {
        check_club(club).map_err(SyncError::Config)?;
        let shared = Arc::new(Shared {
            state: Mutex::new(SyncState::default()),
            wake: Mutex::new(false),
            cond: Condvar::new(),
            stop: AtomicBool::new(false),
            waker: Mutex::new(None),
        });
        let worker = Worker {
            base: club.url.trim().trim_end_matches('/').to_owned(),
            token: club.token.clone(),
            db_path,
            options,
            shared: shared.clone(),
            store: None,
            remote: BTreeMap::new(),
            stale: true,
            refused: BTreeMap::new(),
            uploaded: BTreeSet::new(),
            agent: None,
            pairings_at: None,
        };
        let thread = std::thread::Builder::new()
            .name("tableside-club-sync".into())
            .spawn(move || worker.run())?;
        Ok(SyncService {
            shared,
            thread: Some(thread),
        })
    }

    /// A copy of the state now.
    pub fn state(&self) -> SyncState {
        lock(&self.shared.state).clone()
    }

    /// Asks the thread to look at the store now (after a new entry, say).
    pub fn nudge(&self) {
        *lock(&self.shared.wake) = true;
        self.shared.cond.notify_all();
    }

    /// Called (from the sync thread) whenever the state changes: the window repaints.
    pub fn set_waker(&self, waker: impl Fn() + Send + 'static) {
        *lock(&self.shared.waker) = Some(Box::new(waker));
    }

    /// True once a waker is set.
    pub fn has_waker(&self) -> bool {
        lock(&self.shared.waker).is_some()
    }

    /// Waits until `ready(state)` holds, at most `timeout`; returns the state then, or the last
    /// state seen when the time is up.
    pub fn wait_for(
        &self,
        timeout: Duration,
        ready: impl Fn(&SyncState) -> bool,
    ) -> Result<SyncState, Box<SyncState>> {
        let end = Instant::now() + timeout;
        loop {
            let s = self.state();
            if ready(&s) {
                return Ok(s);
            }
            if Instant::now() >= end {
                return Err(Box::new(s));
            }
            self.nudge();
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for SyncService {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.nudge();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What went wrong in one round.
enum RoundError {
    /// The club (or its database) cannot be reached: back off.
    Unreachable(String),
    /// The store cannot be read.
    Store(StoreError),
}

/// Why a match's catalogue text cannot be sent: the store failed (try again later), or the
/// match cannot be verified from what this kiosk holds (refused for good, both languages).
enum NoCatalogue {
    Store(StoreError),
    Refused(Refusal),
}

/// The catalogue version a stored match was played with and that version's text, from the
/// card library (`crate::store::library`): the version its record names, else the one its
/// header names (`catalogue_version`), else — for a match stored before the card library — the
/// current version of its set, the one the kiosk itself replays it with. The text is what the
/// server replays the match with, so it must hash to the version and be a set of the header's
/// game and set id; anything else is refused here, with the reason, rather than sent.
fn match_catalogue(
    store: &Store,
    id: MatchId,
    header: &MatchHeader,
    header_json: &str,
) -> Result<(String, String), NoCatalogue> {
    use crate::store::library::short;
    let refused = |en: String, ja: String| NoCatalogue::Refused(local_refusal(&en, &ja));
    let library = |e: crate::store::LibraryError| match e {
        crate::store::LibraryError::Store(e) => NoCatalogue::Store(e),
        e => refused(e.to_string(), e.ja()),
    };
    let stored = store
        .match_catalogue_version(id)
        .map_err(NoCatalogue::Store)?;
    let named = serde_json::from_str::<serde_json::Value>(header_json)
        .ok()
        .and_then(|h| {
            h.get(crate::session::CATALOGUE_VERSION_KEY)?
                .as_str()
                .map(str::to_owned)
        });
    if let (Some(s), Some(n)) = (&stored, &named)
        && s != n
    {
        return Err(refused(
            format!(
                "its header names catalogue version {}, its record {}: the match log is inconsistent",
                short(n),
                short(s)
            ),
            format!(
                "ヘッダーのカタログ版 {} と記録のカタログ版 {} が違います。対戦記録に矛盾があります",
                short(n),
                short(s)
            ),
        ));
    }
    let version = match stored.or(named) {
        Some(v) => v,
        None => store.current_version(&header.catalogue).map_err(library)?,
    };
    let (game, set_id, text) = store.catalogue_text(&version).map_err(library)?;
    if game != header.game || set_id != header.catalogue {
        return Err(refused(
            format!(
                "it is {} with set {}, but its catalogue version {} is {game} set {set_id}",
                header.game,
                header.catalogue,
                short(&version)
            ),
            format!(
                "{} のセット {} の対戦ですが、カタログ版 {} は {game} のセット {set_id} です",
                header.game,
                header.catalogue,
                short(&version)
            ),
        ));
    }
    if catalogue_sha256(&text) != version {
        return Err(refused(
            format!(
                "the card library's text of catalogue version {} is not that version (the store is damaged)",
                short(&version)
            ),
            format!(
                "カードライブラリにあるカタログ版 {} の内容がその版と一致しません（保存データの破損）",
                short(&version)
            ),
        ));
    }
    Ok((version, text))
}

struct Worker {
    base: String,
    token: String,
    db_path: PathBuf,
    options: SyncOptions,
    shared: Arc<Shared>,
    store: Option<Store>,
    /// What the server holds (match → entries), as it last said.
    remote: BTreeMap<i64, u64>,
    /// True until the server is asked, and after any failure: ask again before pushing.
    stale: bool,
    /// Matches refused for good, at the local entry count they were refused at.
    refused: BTreeMap<i64, (u64, Refusal)>,
    /// Catalogue hashes the server has (uploaded or found).
    uploaded: BTreeSet<String>,
    agent: Option<ureq::Agent>,
    pairings_at: Option<Instant>,
}

/// An HTTP answer: status and body text.
struct Answer {
    status: u16,
    body: String,
}

impl Worker {
    fn run(mut self) {
        let mut backoff = self.options.min_backoff;
        while !self.shared.stop.load(Ordering::SeqCst) {
            let wait = match self.round() {
                Ok(()) => {
                    backoff = self.options.min_backoff;
                    self.update(|s| {
                        s.unreachable_since = None;
                        s.last_error = None;
                    });
                    self.options.poll
                }
                Err(e) => {
                    self.stale = true;
                    let text = match e {
                        RoundError::Unreachable(t) => {
                            let now = crate::session::now_ms();
                            self.update(|s| {
                                s.unreachable_since.get_or_insert(now);
                                s.last_error = Some(t.clone());
                            });
                            t
                        }
                        RoundError::Store(e) => {
                            self.store = None;
                            let t = format!("the match store cannot be read: {e}");
                            self.update(|s| s.last_error = Some(t.clone()));
                            t
                        }
                    };
                    let _ = text;
                    let w = backoff;
                    backoff = (backoff * 2).min(self.options.max_backoff);
                    w
                }
            };
            self.update(|s| s.rounds += 1);
            self.sleep(wait);
        }
    }

    fn sleep(&self, d: Duration) {
        let end = Instant::now() + d;
        let mut woken = lock(&self.shared.wake);
        while !*woken && !self.shared.stop.load(Ordering::SeqCst) {
            let now = Instant::now();
            if now >= end {
                break;
            }
            woken = match self.shared.cond.wait_timeout(woken, end - now) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
        *woken = false;
    }

    fn update(&self, f: impl FnOnce(&mut SyncState)) {
        let changed = {
            let mut s = lock(&self.shared.state);
            let before = s.clone();
            f(&mut s);
            let mut after = s.clone();
            after.rounds = before.rounds;
            after != before
        };
        if changed && let Some(w) = lock(&self.shared.waker).as_ref() {
            w();
        }
    }

    fn agent(&mut self) -> &ureq::Agent {
        let timeout = self.options.timeout;
        self.agent.get_or_insert_with(|| {
            ureq::Agent::config_builder()
                .timeout_global(Some(timeout))
                .http_status_as_error(false)
                .build()
                .into()
        })
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&str>,
    ) -> Result<Answer, RoundError> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Bearer {}", self.token);
        let agent = self.agent().clone();
        let sent = match (method, body) {
            ("PUT", Some(b)) => agent
                .put(&url)
                .header("Authorization", &auth)
                .content_type("application/json")
                .send(b),
            _ => agent.get(&url).header("Authorization", &auth).call(),
        };
        let mut resp = sent.map_err(|e| RoundError::Unreachable(format!("{url}: {e}")))?;
        let status = resp.status().as_u16();
        let body = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| RoundError::Unreachable(format!("{url}: {e}")))?;
        if status >= 500 || status == 408 || status == 429 {
            let why = serde_json::from_str::<Refusal>(&body)
                .map_or_else(|_| format!("HTTP {status}"), |r| r.reason_en);
            return Err(RoundError::Unreachable(format!("{url}: {why}")));
        }
        Ok(Answer { status, body })
    }

    fn store(&mut self) -> Result<Option<&Store>, RoundError> {
        if self.store.is_none() {
            match Store::open_read_only(&self.db_path) {
                Ok(s) => self.store = Some(s),
                Err(StoreError::NotFound { .. }) => return Ok(None),
                Err(e) => return Err(RoundError::Store(e)),
            }
        }
        Ok(self.store.as_ref())
    }

    /// One round: progress (when unknown), every missing entry pushed, pairings fetched.
    fn round(&mut self) -> Result<(), RoundError> {
        let counts = match self.store()? {
            Some(store) => store.entry_counts().map_err(RoundError::Store)?,
            None => Vec::new(),
        };
        // What is waiting, as far as the server last said (everything, before it first answers).
        self.publish(&counts);
        if self.stale {
            let a = self.request("GET", PROGRESS_PATH, None)?;
            let p: Progress = self.parse(&a)?;
            self.update(|s| s.kiosk = Some(p.kiosk.clone()));
            self.remote = p.matches.into_iter().collect();
            self.stale = false;
        }
        let mut pending: Vec<(MatchId, u64)> = counts
            .iter()
            .copied()
            .filter(|(id, n)| self.needs_push(*id, *n))
            .collect();
        // Refusals of matches that grew since are forgotten (they are tried again).
        let local: BTreeMap<i64, u64> = counts.iter().map(|(id, n)| (id.0, *n)).collect();
        self.refused
            .retain(|id, (at, _)| local.get(id).is_some_and(|n| n == at));
        self.publish(&counts);
        // The newest matches first (tonight's tables are live), then the rest by id.
        pending.sort_by_key(|(id, _)| std::cmp::Reverse(id.0));
        for (id, local_count) in pending {
            if self.shared.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            self.push_match(id, local_count)?;
            self.publish(&counts);
        }
        let due = self
            .pairings_at
            .is_none_or(|t| t.elapsed() >= self.options.pairings_every);
        if due {
            let a = self.request("GET", PAIRINGS_PATH, None)?;
            if a.status == 200 {
                let p: Pairings = self.parse(&a)?;
                self.update(|s| s.pairings = p.pairings);
            }
            self.pairings_at = Some(Instant::now());
        }
        let all = self.refused.is_empty() && counts.iter().all(|(id, n)| !self.needs_push(*id, *n));
        if all {
            let now = crate::session::now_ms();
            self.update(|s| s.last_synced_ms = Some(now));
        }
        Ok(())
    }

    fn parse<T: serde::de::DeserializeOwned>(&self, a: &Answer) -> Result<T, RoundError> {
        if a.status != 200 {
            let why = serde_json::from_str::<Refusal>(&a.body)
                .map_or_else(|_| format!("HTTP {}", a.status), |r| r.reason_en);
            return Err(RoundError::Unreachable(why));
        }
        serde_json::from_str(&a.body)
            .map_err(|e| RoundError::Unreachable(format!("the club's answer is not readable: {e}")))
    }

    fn needs_push(&self, id: MatchId, local: u64) -> bool {
        if self.refused.get(&id.0).is_some_and(|(at, _)| *at == local) {
            return false;
        }
        match self.remote.get(&id.0) {
            Some(n) => *n < local,
            None => true,
        }
    }

    fn publish(&self, counts: &[(MatchId, u64)]) {
        let waiting = counts
            .iter()
            .filter(|(id, n)| self.needs_push(*id, *n))
            .count();
        let refused: Vec<(MatchId, Refusal)> = self
            .refused
            .iter()
            .map(|(id, (_, r))| (MatchId(*id), r.clone()))
            .collect();
        let synced = counts.len().saturating_sub(waiting + refused.len());
        self.update(|s| {
            s.waiting = waiting;
            s.synced = synced;
            s.refused = refused;
        });
    }

    fn refuse(&mut self, id: MatchId, at: u64, r: Refusal) {
        self.refused.insert(id.0, (at, r));
    }

    /// Pushes one match until the server holds all its local entries.
    fn push_match(&mut self, id: MatchId, local: u64) -> Result<(), RoundError> {
        let (record, header) = {
            let Some(store) = self.store()? else {
                return Ok(());
            };
            let record = store.get(id).map_err(RoundError::Store)?;
            let header: Option<MatchHeader> = serde_json::from_str(&record.header_json).ok();
            (record, header)
        };
        let Some(header) = header else {
            self.refuse(
                id,
                local,
                local_refusal(
                    "the stored header cannot be read",
                    "保存されたヘッダーを読めません",
                ),
            );
            return Ok(());
        };
        let found = match self.store()? {
            Some(store) => match_catalogue(store, id, &header, &record.header_json),
            None => return Ok(()),
        };
        let (sha, text) = match found {
            Ok(x) => x,
            Err(NoCatalogue::Store(e)) => return Err(RoundError::Store(e)),
            Err(NoCatalogue::Refused(r)) => {
                self.refuse(id, local, r);
                return Ok(());
            }
        };
        let kiosk = lock(&self.shared.state).kiosk.clone().unwrap_or_default();
        let path = push_path(&kiosk, id.0);
        let mut tries = 0;
        loop {
            tries += 1;
            if tries > 8 {
                return Err(RoundError::Unreachable(format!(
                    "match {id}: the club keeps answering without progress"
                )));
            }
            let from = self.remote.get(&id.0).copied().unwrap_or(0);
            if from >= local && self.remote.contains_key(&id.0) {
                return Ok(());
            }
            let entries = match self.store()? {
                Some(store) => store
                    .entries_from(id, from, CHUNK)
                    .map_err(RoundError::Store)?,
                None => return Ok(()),
            };
            let req = PushRequest {
                header_json: record.header_json.clone(),
                catalogue_sha256: sha.clone(),
                created_ms: record.created_ms,
                entries: entries
                    .into_iter()
                    .map(|e| PushEntry {
                        seq: e.seq,
                        at_ms: e.at_ms,
                        input_json: e.input_json,
                    })
                    .collect(),
            };
            let body =
                serde_json::to_string(&req).map_err(|e| RoundError::Unreachable(e.to_string()))?;
            let a = self.request("PUT", &path, Some(&body))?;
            if a.status == 200 {
                let r: PushResponse = self.parse(&a)?;
                self.remote.insert(id.0, r.stored);
                if r.stored >= local {
                    return Ok(());
                }
                tries = 0;
                continue;
            }
            let Ok(refusal) = serde_json::from_str::<Refusal>(&a.body) else {
                return Err(RoundError::Unreachable(format!(
                    "HTTP {} from the club",
                    a.status
                )));
            };
            match refusal.code {
                RefusalCode::CatalogueMissing if !self.uploaded.contains(&sha) => {
                    let up = self.request_raw_put(&catalogue_path(&sha), &text)?;
                    if up.status != 204 && up.status != 200 {
                        let r = serde_json::from_str::<Refusal>(&up.body).unwrap_or(refusal);
                        self.refuse(id, local, r);
                        return Ok(());
                    }
                    self.uploaded.insert(sha.clone());
                }
                RefusalCode::Gap => {
                    if let Some(stored) = refusal.stored {
                        self.remote.insert(id.0, stored);
                    }
                }
                RefusalCode::Unauthorized | RefusalCode::ForeignKiosk => {
                    return Err(RoundError::Unreachable(refusal.reason_en));
                }
                _ => {
                    self.refuse(id, local, refusal);
                    return Ok(());
                }
            }
        }
    }

    fn request_raw_put(&mut self, path: &str, text: &str) -> Result<Answer, RoundError> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Bearer {}", self.token);
        let agent = self.agent().clone();
        let mut resp = agent
            .put(&url)
            .header("Authorization", &auth)
            .content_type("text/plain; charset=utf-8")
            .send(text)
            .map_err(|e| RoundError::Unreachable(format!("{url}: {e}")))?;
        let status = resp.status().as_u16();
        let body = resp
            .body_mut()
            .read_to_string()
            .map_err(|e| RoundError::Unreachable(format!("{url}: {e}")))?;
        if status >= 500 {
            return Err(RoundError::Unreachable(format!("{url}: HTTP {status}")));
        }
        Ok(Answer { status, body })
    }
}

fn local_refusal(en: &str, ja: &str) -> Refusal {
    Refusal {
        code: RefusalCode::Rejected,
        reason_en: en.to_owned(),
        reason_ja: ja.to_owned(),
        seq: None,
        stored: None,
    }
}

/// Local clock time `HH:MM` of a moment in ms since the Unix epoch (for "since 19:02").
pub fn local_hh_mm(ms: i64) -> String {
    use chrono::{Local, TimeZone};
    match Local.timestamp_millis_opt(ms) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            t.format("%H:%M").to_string()
        }
        chrono::LocalResult::None => "--:--".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_club_section_needs_an_address_and_a_token() {
        let good = Club {
            url: "https://club.example".into(),
            token: format!("tsk_{}", "0".repeat(64)),
        };
        assert!(check_club(&good).is_ok());
        let mut bad = good.clone();
        bad.url = "club.example".into();
        assert!(check_club(&bad).unwrap_err().contains("url"));
        let mut bad = good;
        bad.token = "hunter2".into();
        assert!(check_club(&bad).unwrap_err().contains("tsk_"));
    }

    #[test]
    fn the_header_names_its_catalogue_version_under_the_key_the_club_reads() {
        assert_eq!(
            crate::session::CATALOGUE_VERSION_KEY,
            club_protocol::HEADER_CATALOGUE_VERSION
        );
    }

    #[test]
    fn times_read_as_hours_and_minutes() {
        let t = local_hh_mm(0);
        assert_eq!(t.len(), 5, "{t}");
        assert_eq!(&t[2..3], ":");
    }
}
