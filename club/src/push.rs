//! The push API: a kiosk's match logs in, verified by replay through `cards` before they count.
//!
//! A push names a match by (kiosk, kiosk match id) and carries its header and a run of
//! consecutive entries. In one transaction, with the row-level checks set to the pushing
//! kiosk (`club.kiosk_id`), the server:
//!
//! 1. locks the match row (or creates it: the header must set a match up with the catalogue
//!    version the push names, which must be on the server — else `catalogue-missing` — and be
//!    the version the header names, if it names one — else `unverifiable`);
//! 2. compares the entries it already holds byte for byte (a difference is a `rewrite`, an
//!    entry past its count a `gap`);
//! 3. replays the new entries through the rules core after the stored ones (a live match's
//!    replay is kept in a bounded cache between pushes, so it costs only its new entries); an
//!    entry the rules reject is `rejected`, with its sequence number and reason;
//! 4. stores them, and derives the outcome, the live view (turn, phase, tracked numbers), the
//!    statistics' change and the club night pairing it settles — all from its own replay.
//!
//! Any refusal rolls the whole push back, is logged (table `refusals` and standard error), and
//! is answered with a [`Refusal`] in English and Japanese.

use crate::error::ClubError;
use crate::server::{AppState, Kiosk};
use cards::catalogue::Catalogue;
use cards::core::Outcome;
use cards::game::MatchHeader;
use cards::matches::{AnyMatch, new_match};
use club_protocol::{
    HEADER_CATALOGUE_VERSION, MAX_ENTRIES_PER_MATCH, MAX_ENTRIES_PER_PUSH, PushRequest,
    PushResponse, Refusal, RefusalCode, is_sha256_hex,
};
use deadpool_postgres::Transaction;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How many replayed matches the server keeps between pushes.
pub const MATCH_CACHE: usize = 512;

/// How many parsed catalogue versions the server keeps.
pub const CATALOGUE_CACHE: usize = 64;

/// Why a push did not go in: refused (the kiosk's fault) or failed (the server's).
#[derive(Debug)]
pub enum Fail {
    /// Refused, with the reason for the kiosk.
    Refused(Refusal),
    /// The server failed; nothing was stored.
    Internal(ClubError),
    /// Another push created the same match at the same moment: run the push again.
    Retry,
}

impl From<ClubError> for Fail {
    fn from(e: ClubError) -> Fail {
        Fail::Internal(e)
    }
}

impl From<tokio_postgres::Error> for Fail {
    fn from(e: tokio_postgres::Error) -> Fail {
        Fail::Internal(e.into())
    }
}

impl From<deadpool_postgres::PoolError> for Fail {
    fn from(e: deadpool_postgres::PoolError) -> Fail {
        Fail::Internal(e.into())
    }
}

/// A refusal with its reason in both languages.
pub fn refusal(code: RefusalCode, en: impl Into<String>, ja: impl Into<String>) -> Refusal {
    Refusal {
        code,
        reason_en: en.into(),
        reason_ja: ja.into(),
        seq: None,
        stored: None,
    }
}

fn refused(code: RefusalCode, en: impl Into<String>, ja: impl Into<String>) -> Fail {
    Fail::Refused(refusal(code, en, ja))
}

/// Replayed matches kept between pushes, at most [`MATCH_CACHE`], the least recently used
/// dropped first.
#[derive(Default)]
pub struct MatchCache {
    map: HashMap<i64, (u64, u64, Box<dyn AnyMatch>)>,
    tick: u64,
}

impl MatchCache {
    /// Takes the match out if the cache holds it replayed up to exactly `count` entries.
    fn take(&mut self, id: i64, count: u64) -> Option<Box<dyn AnyMatch>> {
        match self.map.remove(&id) {
            Some((n, _, m)) if n == count => Some(m),
            _ => None,
        }
    }

    fn put(&mut self, id: i64, count: u64, m: Box<dyn AnyMatch>) {
        self.tick += 1;
        if self.map.len() >= MATCH_CACHE
            && let Some(oldest) = self
                .map
                .iter()
                .min_by_key(|(_, (_, used, _))| *used)
                .map(|(k, _)| *k)
        {
            self.map.remove(&oldest);
        }
        self.map.insert(id, (count, self.tick, m));
    }

    /// How many matches are kept now.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when none is kept.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The parsed catalogue of `sha256`, from the cache or the database; `None` when the server
/// does not have it.
pub async fn catalogue(
    st: &AppState,
    tx: &Transaction<'_>,
    sha256: &str,
) -> Result<Option<Arc<Catalogue>>, ClubError> {
    if let Some(c) = lock(&st.catalogues).get(sha256) {
        return Ok(Some(c.clone()));
    }
    let Some(row) = tx
        .query_opt("SELECT body FROM catalogues WHERE sha256 = $1", &[&sha256])
        .await?
    else {
        return Ok(None);
    };
    let body: String = row.get(0);
    let cat = tokio::task::block_in_place(|| Catalogue::load(sha256, &body)).map_err(|e| {
        ClubError::Replay {
            id: 0,
            reason: format!("stored catalogue {sha256} no longer loads: {e}"),
        }
    })?;
    let cat = Arc::new(cat);
    let mut cache = lock(&st.catalogues);
    if cache.len() >= CATALOGUE_CACHE {
        cache.clear();
    }
    cache.insert(sha256.to_owned(), cat.clone());
    Ok(Some(cat))
}

/// The member a kiosk's player name stands for: linked before, else matched by name (trimmed,
/// case folded), else a new member of that name. Called inside the push transaction.
pub async fn member_for(tx: &Transaction<'_>, kiosk: i64, name: &str) -> Result<i64, ClubError> {
    if let Some(row) = tx
        .query_opt(
            "SELECT member_id FROM player_names WHERE kiosk_id = $1 AND name = $2",
            &[&kiosk, &name],
        )
        .await?
    {
        return Ok(row.get(0));
    }
    let key = name_key(name);
    tx.execute(
        "INSERT INTO members (name, name_key) VALUES ($1, $2) ON CONFLICT (name_key) DO NOTHING",
        &[&name.trim(), &key],
    )
    .await?;
    let member: i64 = tx
        .query_one("SELECT id FROM members WHERE name_key = $1", &[&key])
        .await?
        .get(0);
    tx.execute(
        "INSERT INTO player_names (kiosk_id, name, member_id) VALUES ($1, $2, $3)
         ON CONFLICT (kiosk_id, name) DO NOTHING",
        &[&kiosk, &name, &member],
    )
    .await?;
    Ok(tx
        .query_one(
            "SELECT member_id FROM player_names WHERE kiosk_id = $1 AND name = $2",
            &[&kiosk, &name],
        )
        .await?
        .get(0))
}

/// What a player name is matched by: trimmed, lower case, inner runs of white space as one.
pub fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Checks the parts of a push that need no database: sizes, hashes, consecutive entries.
pub fn check_shape(kiosk_match: i64, req: &PushRequest) -> Result<(), Refusal> {
    let bad = |en: String, ja: String| Err(refusal(RefusalCode::Malformed, en, ja));
    if kiosk_match < 1 {
        return bad(
            format!("match id {kiosk_match} is not a kiosk match id (1 or more)"),
            format!("対戦番号 {kiosk_match} は正しくありません（1 以上）"),
        );
    }
    if !is_sha256_hex(&req.catalogue_sha256) {
        return bad(
            "catalogue_sha256 must be 64 lowercase hex digits".into(),
            "catalogue_sha256 は 16 進小文字 64 桁です".into(),
        );
    }
    if req.entries.len() > MAX_ENTRIES_PER_PUSH {
        return bad(
            format!(
                "a push carries at most {MAX_ENTRIES_PER_PUSH} entries, not {}",
                req.entries.len()
            ),
            format!(
                "1 回に送れる記録は {MAX_ENTRIES_PER_PUSH} 件までです（{} 件）",
                req.entries.len()
            ),
        );
    }
    for pair in req.entries.windows(2) {
        if let [a, b] = pair
            && b.seq != a.seq + 1
        {
            return bad(
                format!("entries must be consecutive: {} follows {}", b.seq, a.seq),
                format!("記録は連番で送ってください: {} の次が {}", a.seq, b.seq),
            );
        }
    }
    if let Some(last) = req.entries.last()
        && last.seq >= MAX_ENTRIES_PER_MATCH
    {
        return Err(refusal(
            RefusalCode::Rejected,
            format!("a match holds at most {MAX_ENTRIES_PER_MATCH} entries"),
            format!("1 対戦の記録は {MAX_ENTRIES_PER_MATCH} 件までです"),
        ));
    }
    Ok(())
}

/// Handles one push (with retries on deadlock); the caller has authenticated `kiosk` and
/// checked that the path names it.
pub async fn push(
    st: &AppState,
    kiosk: &Kiosk,
    kiosk_match: i64,
    req: &PushRequest,
) -> Result<PushResponse, Fail> {
    check_shape(kiosk_match, req).map_err(Fail::Refused)?;
    let mut attempt = 0;
    loop {
        attempt += 1;
        match push_once(st, kiosk, kiosk_match, req).await {
            Err(Fail::Internal(e)) if e.is_retryable() && attempt < 5 => continue,
            Err(Fail::Retry) if attempt < 5 => continue,
            Err(Fail::Retry) => {
                return Err(Fail::Internal(crate::error::usage(
                    "the match was created by several pushes at once; push again",
                    "同じ対戦が同時に何度も送られました。もう一度送ってください",
                )));
            }
            other => return other,
        }
    }
}

struct Stored {
    id: i64,
    count: u64,
    result: Option<String>,
}

async fn push_once(
    st: &AppState,
    kiosk: &Kiosk,
    kiosk_match: i64,
    req: &PushRequest,
) -> Result<PushResponse, Fail> {
    let mut client = st.pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute(
        "SELECT set_config('club.kiosk_id', $1, true)",
        &[&kiosk.id.to_string()],
    )
    .await?;
    let row = tx
        .query_opt(
            "SELECT id, header_json, catalogue_sha256, entry_count, result
             FROM matches WHERE kiosk_id = $1 AND kiosk_match = $2 FOR UPDATE",
            &[&kiosk.id, &kiosk_match],
        )
        .await?;
    let created = row.is_none();
    let (stored, mut game) = match row {
        Some(row) => {
            let id: i64 = row.get(0);
            let header: String = row.get(1);
            let sha: String = row.get(2);
            let count = u64::try_from(row.get::<_, i32>(3)).unwrap_or(0);
            if header != req.header_json {
                return Err(refused(
                    RefusalCode::Rewrite,
                    format!("match {kiosk_match}: the header differs from the one stored"),
                    format!("対戦 {kiosk_match}: ヘッダーが保存済みのものと違います"),
                ));
            }
            if sha != req.catalogue_sha256 {
                return Err(refused(
                    RefusalCode::Rewrite,
                    format!("match {kiosk_match}: it was stored with catalogue {sha}"),
                    format!("対戦 {kiosk_match}: カタログ {sha} で保存済みです"),
                ));
            }
            let stored = Stored {
                id,
                count,
                result: row.get(4),
            };
            let cached = lock(&st.cache).take(id, count);
            let game = match cached {
                Some(m) => m,
                None => replay_stored(st, &tx, id, &header, &sha).await?,
            };
            (stored, game)
        }
        None => create(st, &tx, kiosk, kiosk_match, req).await?,
    };

    let first = req.entries.first().map_or(stored.count, |e| e.seq);
    if first > stored.count {
        let mut r = refusal(
            RefusalCode::Gap,
            format!(
                "match {kiosk_match}: the server holds {} entries, the push starts at {first}",
                stored.count
            ),
            format!(
                "対戦 {kiosk_match}: サーバーにある記録は {} 件で、送られたのは {first} 件目からです",
                stored.count
            ),
        );
        r.stored = Some(stored.count);
        return Err(Fail::Refused(r));
    }
    // Entries the server holds already must be the same, byte for byte.
    let overlap: Vec<&club_protocol::PushEntry> = req
        .entries
        .iter()
        .filter(|e| e.seq < stored.count)
        .collect();
    if let (Some(a), Some(b)) = (overlap.first(), overlap.last()) {
        let from = i32::try_from(a.seq).unwrap_or(i32::MAX);
        let to = i32::try_from(b.seq).unwrap_or(i32::MAX);
        let rows = tx
            .query(
                "SELECT seq, at_ms, input_json FROM entries
                 WHERE match_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
                &[&stored.id, &from, &to],
            )
            .await?;
        for (e, row) in overlap.iter().zip(&rows) {
            let at_ms: i64 = row.get(1);
            let input: &str = row.get(2);
            if at_ms != e.at_ms || input != e.input_json {
                let mut r = refusal(
                    RefusalCode::Rewrite,
                    format!(
                        "match {kiosk_match}: entry {} differs from the one stored",
                        e.seq
                    ),
                    format!(
                        "対戦 {kiosk_match}: 記録 {} が保存済みのものと違います",
                        e.seq
                    ),
                );
                r.seq = Some(e.seq);
                return Err(Fail::Refused(r));
            }
        }
    }
    let new: Vec<&club_protocol::PushEntry> = req
        .entries
        .iter()
        .filter(|e| e.seq >= stored.count)
        .collect();
    if new.is_empty() && !created {
        // Nothing new: an idempotent repeat.
        tx.commit().await?;
        let finished = stored.result.is_some();
        if !finished {
            lock(&st.cache).put(stored.id, stored.count, game);
        }
        return Ok(PushResponse {
            stored: stored.count,
            finished,
        });
    }
    // The rules core judges every new entry.
    let verdict = tokio::task::block_in_place(|| {
        for e in &new {
            if let Err(rejection) = game.commit_json(&e.input_json) {
                let mut r = refusal(
                    RefusalCode::Rejected,
                    format!(
                        "match {kiosk_match}: entry {} is not accepted by the rules: {rejection}",
                        e.seq
                    ),
                    format!(
                        "対戦 {kiosk_match}: 記録 {} はルール上受け付けられません: {rejection}",
                        e.seq
                    ),
                );
                r.seq = Some(e.seq);
                return Err(r);
            }
        }
        Ok(())
    });
    verdict.map_err(Fail::Refused)?;

    if !new.is_empty() {
        let seqs: Vec<i32> = new
            .iter()
            .map(|e| i32::try_from(e.seq).unwrap_or(i32::MAX))
            .collect();
        let at: Vec<i64> = new.iter().map(|e| e.at_ms).collect();
        let inputs: Vec<&str> = new.iter().map(|e| e.input_json.as_str()).collect();
        tx.execute(
            "INSERT INTO entries (match_id, seq, kiosk_id, at_ms, input_json)
             SELECT $1, s, $2, a, i FROM unnest($3::int[], $4::bigint[], $5::text[]) AS u(s, a, i)",
            &[&stored.id, &kiosk.id, &seqs, &at, &inputs],
        )
        .await?;
    }
    let count = stored.count + new.len() as u64;
    let outcome = game.outcome();
    let (result, winner, reason): (Option<&str>, Option<i32>, Option<String>) = match &outcome {
        Some(Outcome::Win { winner, reason }) => (
            Some("win"),
            Some(i32::try_from(*winner).unwrap_or(i32::MAX)),
            Some(reason.clone()),
        ),
        Some(Outcome::Draw { reason }) => (Some("draw"), None, Some(reason.clone())),
        None => (None, None, None),
    };
    let ctx = game.context();
    let phase = ctx.phase.phases.get(ctx.phase.current).map_or_else(
        || ctx.phase.step.clone(),
        |p| format!("{p} · {}", ctx.phase.step),
    );
    let trackers = serde_json::to_string(&game.trackers()).unwrap_or_else(|_| "[]".into());
    let turn = i32::try_from(ctx.turn).unwrap_or(i32::MAX);
    let count_i32 = i32::try_from(count).unwrap_or(i32::MAX);
    // A match's counted result is taken out and put in again whenever it may have changed.
    let result_changed = stored.result.is_some() || result.is_some();
    if result_changed {
        take_out_stats(&tx, stored.id).await?;
    }
    tx.execute(
        "UPDATE matches SET entry_count = $2, result = $3, winner_seat = $4, reason = $5,
             finished_at = CASE WHEN $3::text IS NULL THEN NULL ELSE coalesce(finished_at, now()) END,
             turn = $6, phase = $7, trackers_json = $8, updated_at = now()
         WHERE id = $1",
        &[
            &stored.id,
            &count_i32,
            &result,
            &winner,
            &reason,
            &turn,
            &phase,
            &trackers,
        ],
    )
    .await?;
    if result_changed {
        put_in_stats(&tx, stored.id).await?;
    }
    if result.is_some() && stored.result.is_none() {
        link_pairing(&tx, stored.id).await?;
    }
    tx.execute(
        "UPDATE kiosks SET last_seen_at = now() WHERE id = $1",
        &[&kiosk.id],
    )
    .await?;
    tx.commit().await?;
    // Only live matches are kept: a finished one is pushed again only after an undo.
    if result.is_none() {
        lock(&st.cache).put(stored.id, count, game);
    }
    Ok(PushResponse {
        stored: count,
        finished: result.is_some(),
    })
}

/// Creates the match of a first push: the header must set a match up with the named
/// catalogue version.
async fn create(
    st: &AppState,
    tx: &Transaction<'_>,
    kiosk: &Kiosk,
    kiosk_match: i64,
    req: &PushRequest,
) -> Result<(Stored, Box<dyn AnyMatch>), Fail> {
    let header: MatchHeader = serde_json::from_str(&req.header_json).map_err(|e| {
        refused(
            RefusalCode::Rejected,
            format!("match {kiosk_match}: the header is not a match header: {e}"),
            format!("対戦 {kiosk_match}: ヘッダーを読めません: {e}"),
        )
    })?;
    // The version the match was played with, as its header names it, is the one it is
    // replayed with: a push naming another cannot be verified.
    let named = serde_json::from_str::<serde_json::Value>(&req.header_json)
        .ok()
        .and_then(|h| h.get(HEADER_CATALOGUE_VERSION).cloned());
    match named {
        None => {}
        Some(serde_json::Value::String(v)) if v == req.catalogue_sha256 => {}
        Some(v) => {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            return Err(refused(
                RefusalCode::Unverifiable,
                format!(
                    "match {kiosk_match} was played with catalogue version {v} (its header says so), \
                     but the push names {}: it cannot be verified",
                    req.catalogue_sha256
                ),
                format!(
                    "対戦 {kiosk_match} はカタログ版 {v} で遊ばれました（ヘッダーの記載）が、送信はカタログ版 {} を指しています。検証できません",
                    req.catalogue_sha256
                ),
            ));
        }
    }
    let Some(cat) = catalogue(st, tx, &req.catalogue_sha256).await? else {
        return Err(refused(
            RefusalCode::CatalogueMissing,
            format!(
                "the server lacks catalogue {}: upload it, then push again",
                req.catalogue_sha256
            ),
            format!(
                "サーバーにカタログ {} がありません。アップロードしてから送り直してください",
                req.catalogue_sha256
            ),
        ));
    };
    if cat.game != header.game || cat.set.id != header.catalogue {
        return Err(refused(
            RefusalCode::Rejected,
            format!(
                "match {kiosk_match} is {} with set {}, but catalogue {} is {} set {}",
                header.game, header.catalogue, req.catalogue_sha256, cat.game, cat.set.id
            ),
            format!(
                "対戦 {kiosk_match} は {} のセット {} ですが、カタログ {} は {} のセット {} です",
                header.game, header.catalogue, req.catalogue_sha256, cat.game, cat.set.id
            ),
        ));
    }
    let game = tokio::task::block_in_place(|| new_match(header.clone(), &cat)).map_err(|e| {
        refused(
            RefusalCode::Rejected,
            format!("match {kiosk_match}: the header cannot set a match up: {e}"),
            format!("対戦 {kiosk_match}: このヘッダーでは対戦を始められません: {e}"),
        )
    })?;
    let mut members = Vec::new();
    for p in &header.players {
        if p.name.trim().is_empty() {
            return Err(refused(
                RefusalCode::Rejected,
                format!("match {kiosk_match}: a player has no name"),
                format!("対戦 {kiosk_match}: 名前のないプレイヤーがいます"),
            ));
        }
        let m = member_for(tx, kiosk.id, &p.name).await?;
        if members.contains(&m) {
            return Err(refused(
                RefusalCode::Rejected,
                format!(
                    "match {kiosk_match}: two seats are the same club member ({})",
                    p.name
                ),
                format!("対戦 {kiosk_match}: 2 つの席が同じ会員です（{}）", p.name),
            ));
        }
        members.push(m);
    }
    let row = tx
        .query_opt(
            "INSERT INTO matches (kiosk_id, kiosk_match, game, catalogue_sha256, header_json,
                                  created_ms, played_on)
             VALUES ($1, $2, $3, $4, $5, $6,
                     (to_timestamp($6::bigint::float8 / 1000.0)
                        AT TIME ZONE (SELECT value FROM settings WHERE key = 'timezone'))::date)
             ON CONFLICT (kiosk_id, kiosk_match) DO NOTHING
             RETURNING id",
            &[
                &kiosk.id,
                &kiosk_match,
                &header.game.as_str(),
                &req.catalogue_sha256,
                &req.header_json,
                &req.created_ms,
            ],
        )
        .await?;
    let Some(row) = row else {
        // Another push created it meanwhile: start again (it is then found and locked).
        return Err(Fail::Retry);
    };
    let id: i64 = row.get(0);
    for (seat, (p, member)) in header.players.iter().zip(&members).enumerate() {
        let seat = i32::try_from(seat).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO match_players (match_id, seat, kiosk_id, member_id, name, deck_name)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[&id, &seat, &kiosk.id, member, &p.name, &p.deck_name],
        )
        .await?;
    }
    Ok((
        Stored {
            id,
            count: 0,
            result: None,
        },
        game,
    ))
}

/// Replays a stored match from the database (after a restart, or when the cache dropped it).
async fn replay_stored(
    st: &AppState,
    tx: &Transaction<'_>,
    id: i64,
    header_json: &str,
    sha: &str,
) -> Result<Box<dyn AnyMatch>, Fail> {
    let failed = |reason: String| Fail::Internal(ClubError::Replay { id, reason });
    let header: MatchHeader =
        serde_json::from_str(header_json).map_err(|e| failed(e.to_string()))?;
    let cat = catalogue(st, tx, sha)
        .await?
        .ok_or_else(|| failed(format!("catalogue {sha} is gone")))?;
    let rows = tx
        .query(
            "SELECT input_json FROM entries WHERE match_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?;
    tokio::task::block_in_place(|| {
        let mut m = new_match(header, &cat).map_err(|e| failed(e.to_string()))?;
        m.reserve(rows.len());
        for row in &rows {
            m.commit_json(row.get(0))
                .map_err(|e| failed(e.to_string()))?;
        }
        Ok(m)
    })
}

/// The statistics rows a finished match counts in: every season its day falls in, and all
/// time (season 0), for each seat; ordered so concurrent pushes lock rows in one order.
macro_rules! contributions {
    () => {
        "SELECT s.id AS season_id, m.game, p.member_id, p.deck_name,
                (m.result = 'win' AND m.winner_seat = p.seat)::int AS won,
                (m.result = 'draw')::int AS drawn
         FROM matches m
         JOIN match_players p ON p.match_id = m.id
         JOIN (SELECT 0::bigint AS id, '-infinity'::date AS starts_on, 'infinity'::date AS ends_on
               UNION ALL SELECT id, starts_on, ends_on FROM seasons) s
           ON m.played_on BETWEEN s.starts_on AND s.ends_on
         WHERE m.id = $1 AND m.result IS NOT NULL
         ORDER BY 1, 2, 3, 4"
    };
}

/// Takes a match's counted result out of the statistics and the day's count of its game
/// (before its result changes).
async fn take_out_stats(tx: &Transaction<'_>, id: i64) -> Result<(), ClubError> {
    tx.execute(
        concat!(
            "UPDATE season_stats d
             SET played = d.played - 1, won = d.won - x.won, drawn = d.drawn - x.drawn
             FROM (",
            contributions!(),
            ") x
             WHERE d.season_id = x.season_id AND d.game = x.game AND d.member_id = x.member_id
               AND d.deck_name = x.deck_name"
        ),
        &[&id],
    )
    .await?;
    tx.execute(
        "UPDATE game_days d
         SET finished = d.finished - 1, drawn = d.drawn - (m.result = 'draw')::int
         FROM matches m
         WHERE m.id = $1 AND m.result IS NOT NULL
           AND d.played_on = m.played_on AND d.game = m.game AND d.kiosk_id = m.kiosk_id",
        &[&id],
    )
    .await?;
    Ok(())
}

/// Counts a match's result in the statistics and the day's count of its game (after its
/// result is set).
async fn put_in_stats(tx: &Transaction<'_>, id: i64) -> Result<(), ClubError> {
    tx.execute(
        concat!(
            "INSERT INTO season_stats (season_id, game, member_id, deck_name, played, won, drawn)
             SELECT season_id, game, member_id, deck_name, 1, won, drawn FROM (",
            contributions!(),
            ") x
             ON CONFLICT (season_id, game, member_id, deck_name) DO UPDATE
             SET played = season_stats.played + EXCLUDED.played,
                 won = season_stats.won + EXCLUDED.won,
                 drawn = season_stats.drawn + EXCLUDED.drawn"
        ),
        &[&id],
    )
    .await?;
    tx.execute(
        "INSERT INTO game_days (played_on, game, kiosk_id, finished, drawn)
         SELECT played_on, game, kiosk_id, 1, (result = 'draw')::int FROM matches
         WHERE id = $1 AND result IS NOT NULL
         ON CONFLICT (played_on, game, kiosk_id) DO UPDATE
         SET finished = game_days.finished + 1, drawn = game_days.drawn + EXCLUDED.drawn",
        &[&id],
    )
    .await?;
    Ok(())
}

/// Links a just-finished two-player match to the open club night pairing of its two members
/// (of its game, in a round published before the match was first seen), so the pairing's
/// result is the match's.
async fn link_pairing(tx: &Transaction<'_>, id: i64) -> Result<(), ClubError> {
    tx.execute(
        "UPDATE pairings SET match_id = $1
         WHERE (event_id, round, table_no) = (
             SELECT p.event_id, p.round, p.table_no
             FROM pairings p
             JOIN events e ON e.id = p.event_id
             JOIN rounds r ON r.event_id = p.event_id AND r.round = p.round
             JOIN matches m ON m.id = $1
             JOIN match_players a ON a.match_id = m.id AND a.seat = 0
             JOIN match_players b ON b.match_id = m.id AND b.seat = 1
             WHERE e.game = m.game AND p.match_id IS NULL AND p.manual IS NULL
               AND p.player_b IS NOT NULL AND r.published_at <= m.first_seen_at
               AND ((p.player_a = a.member_id AND p.player_b = b.member_id)
                 OR (p.player_a = b.member_id AND p.player_b = a.member_id))
               AND (SELECT count(*) FROM match_players c WHERE c.match_id = m.id) = 2
             ORDER BY p.round DESC, p.table_no
             LIMIT 1
             FOR UPDATE OF p)
         AND NOT EXISTS (SELECT 1 FROM pairings q WHERE q.match_id = $1)",
        &[&id],
    )
    .await?;
    Ok(())
}

/// The server's log line of a refusal, in both languages: whoever reads the log later may
/// read either.
pub fn refusal_log_line(kiosk: Option<i64>, kiosk_match: Option<i64>, r: &Refusal) -> String {
    let kiosk = kiosk.map_or_else(|| "?".to_owned(), |k| k.to_string());
    let m = kiosk_match.map_or_else(|| "-".to_owned(), |m| m.to_string());
    let code = r.code.as_str();
    format!(
        "tableside-club: refused ({code}) kiosk {kiosk} match {m}: {}\n\
         tableside-club: 拒否（{code}）キオスク {kiosk} 対戦 {m}: {}",
        r.reason_en, r.reason_ja
    )
}

/// Records a refusal in the `refusals` table and on standard error (best effort: when the
/// database is down, only standard error).
pub async fn log_refusal(st: &AppState, kiosk: Option<i64>, kiosk_match: Option<i64>, r: &Refusal) {
    eprintln!("{}", refusal_log_line(kiosk, kiosk_match, r));
    let Ok(client) = st.pool.get().await else {
        return;
    };
    let seq = r.seq.and_then(|s| i64::try_from(s).ok());
    let _ = client
        .execute(
            "INSERT INTO refusals (kiosk_id, kiosk_match, seq, code, reason, reason_ja)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &kiosk,
                &kiosk_match,
                &seq,
                &r.code.as_str(),
                &r.reason_en,
                &r.reason_ja,
            ],
        )
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use club_protocol::PushEntry;

    fn req(seqs: &[u64]) -> PushRequest {
        PushRequest {
            header_json: "{}".into(),
            catalogue_sha256: "a".repeat(64),
            created_ms: 0,
            entries: seqs
                .iter()
                .map(|s| PushEntry {
                    seq: *s,
                    at_ms: 0,
                    input_json: "{}".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn shapes_are_checked_before_the_database() {
        assert!(check_shape(1, &req(&[0, 1, 2])).is_ok());
        assert_eq!(
            check_shape(1, &req(&[0, 2])).unwrap_err().code,
            RefusalCode::Malformed
        );
        assert_eq!(
            check_shape(0, &req(&[])).unwrap_err().code,
            RefusalCode::Malformed
        );
        let mut r = req(&[]);
        r.catalogue_sha256 = "xyz".into();
        assert_eq!(check_shape(1, &r).unwrap_err().code, RefusalCode::Malformed);
        let long: Vec<u64> = (0..=MAX_ENTRIES_PER_PUSH as u64).collect();
        assert_eq!(
            check_shape(1, &req(&long)).unwrap_err().code,
            RefusalCode::Malformed
        );
        assert_eq!(
            check_shape(1, &req(&[MAX_ENTRIES_PER_MATCH]))
                .unwrap_err()
                .code,
            RefusalCode::Rejected
        );
    }

    #[test]
    fn names_match_by_trimmed_case_folded_words() {
        assert_eq!(name_key("  Aki   Tanaka "), "aki tanaka");
        assert_eq!(name_key("AKI"), name_key("aki"));
        assert_ne!(name_key("Aki"), name_key("Ben"));
    }
}
