//! The HTTP server: the kiosk API (`/api/v1/…`, see `club_protocol`) and the web pages.

use crate::error::ClubError;
use crate::push::{self, Fail, MatchCache, refusal};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use cards::catalogue::Catalogue;
use club_protocol::{
    MAX_BODY_BYTES, MAX_CATALOGUE_BYTES, Pairing, Pairings, Progress, PushRequest, Refusal,
    RefusalCode, catalogue_sha256, is_sha256_hex, sha256_hex,
};
use deadpool_postgres::Pool;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;

/// What every request handler shares.
pub struct AppState {
    /// The database.
    pub pool: Pool,
    /// Replayed matches between pushes.
    pub cache: Mutex<MatchCache>,
    /// Parsed catalogue versions by hash.
    pub catalogues: Mutex<HashMap<String, Arc<Catalogue>>>,
}

impl AppState {
    /// The state for a pool.
    pub fn new(pool: Pool) -> Arc<AppState> {
        Arc::new(AppState {
            pool,
            cache: Mutex::new(MatchCache::default()),
            catalogues: Mutex::new(HashMap::new()),
        })
    }
}

/// A kiosk, as its token identifies it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kiosk {
    /// Its id in the database.
    pub id: i64,
    /// Its name.
    pub name: String,
}

/// The whole app: API and pages.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/api/v1/progress", get(progress))
        .route("/api/v1/pairings", get(pairings))
        .route(
            "/api/v1/kiosks/{kiosk}/matches/{kiosk_match}",
            axum::routing::put(push_match),
        )
        .route(
            "/api/v1/catalogues/{sha256}",
            get(has_catalogue)
                .put(put_catalogue)
                .layer(DefaultBodyLimit::max(MAX_CATALOGUE_BYTES)),
        )
        .route("/healthz", get(|| async { "ok" }))
        .merge(crate::web::routes())
        .fallback(|| async { crate::web::not_found() })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}

/// Serves `router` on `listener` until `shutdown` completes.
pub async fn serve(
    pool: Pool,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ClubError> {
    let app = router(AppState::new(pool));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await?;
    Ok(())
}

/// A refusal as an HTTP answer.
pub fn refusal_response(r: &Refusal) -> Response {
    let status = StatusCode::from_u16(r.code.status()).unwrap_or(StatusCode::BAD_REQUEST);
    (status, axum::Json(r)).into_response()
}

fn unavailable(e: &ClubError) -> Response {
    eprintln!("tableside-club: {}", e.both());
    refusal_response(&refusal(
        RefusalCode::Unavailable,
        "the club server cannot reach its database; try again later",
        "クラブサーバーがデータベースに接続できません。あとでもう一度お試しください",
    ))
}

fn fail_response(f: Fail) -> Response {
    match f {
        Fail::Refused(r) => refusal_response(&r),
        Fail::Internal(e) => unavailable(&e),
        Fail::Retry => unavailable(&crate::error::usage("push again", "もう一度送ってください")),
    }
}

/// The kiosk a request's bearer token belongs to.
async fn authenticate(st: &AppState, headers: &HeaderMap) -> Result<Kiosk, Fail> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let no = || {
        Fail::Refused(refusal(
            RefusalCode::Unauthorized,
            "no valid kiosk token (Authorization: Bearer …); see `tableside-club kiosk add`",
            "キオスクのトークンが正しくありません（tableside-club kiosk add を参照）",
        ))
    };
    let Some(token) = token else {
        return Err(no());
    };
    let hash = sha256_hex(token.as_bytes());
    let client = st.pool.get().await?;
    let row = client
        .query_opt(
            "SELECT id, name FROM kiosks WHERE token_sha256 = $1",
            &[&hash],
        )
        .await?;
    match row {
        Some(row) => Ok(Kiosk {
            id: row.get(0),
            name: row.get(1),
        }),
        None => Err(no()),
    }
}

async fn logged(st: &AppState, kiosk: Option<i64>, kiosk_match: Option<i64>, f: Fail) -> Response {
    if let Fail::Refused(r) = &f {
        push::log_refusal(st, kiosk, kiosk_match, r).await;
    }
    fail_response(f)
}

async fn push_match(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path((kiosk_name, kiosk_match)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let kiosk = match authenticate(&st, &headers).await {
        Ok(k) => k,
        Err(f) => return logged(&st, None, None, f).await,
    };
    let Ok(kiosk_match) = kiosk_match.parse::<i64>() else {
        let f = Fail::Refused(refusal(
            RefusalCode::Malformed,
            format!("`{kiosk_match}` is not a match id"),
            format!("「{kiosk_match}」は対戦番号ではありません"),
        ));
        return logged(&st, Some(kiosk.id), None, f).await;
    };
    if kiosk_name != kiosk.name {
        let f = Fail::Refused(refusal(
            RefusalCode::ForeignKiosk,
            format!(
                "this token belongs to kiosk {}, not {kiosk_name}: a kiosk writes only its own matches",
                kiosk.name
            ),
            format!(
                "このトークンはキオスク {} のもので、{kiosk_name} のものではありません。キオスクは自分の対戦だけを書き込めます",
                kiosk.name
            ),
        ));
        return logged(&st, Some(kiosk.id), Some(kiosk_match), f).await;
    }
    let body = match body {
        Ok(b) => b,
        Err(e) => {
            let f = Fail::Refused(body_refusal(&e, MAX_BODY_BYTES));
            return logged(&st, Some(kiosk.id), Some(kiosk_match), f).await;
        }
    };
    let req: PushRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => {
            let f = Fail::Refused(refusal(
                RefusalCode::Malformed,
                format!("the push is not valid: {e}"),
                format!("送られたデータを読めません: {e}"),
            ));
            return logged(&st, Some(kiosk.id), Some(kiosk_match), f).await;
        }
    };
    match push::push(&st, &kiosk, kiosk_match, &req).await {
        Ok(resp) => axum::Json(resp).into_response(),
        Err(f) => logged(&st, Some(kiosk.id), Some(kiosk_match), f).await,
    }
}

fn body_refusal(e: &BytesRejection, limit: usize) -> Refusal {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        refusal(
            RefusalCode::TooLarge,
            format!("the body is larger than {limit} bytes"),
            format!("データが {limit} バイトを超えています"),
        )
    } else {
        refusal(
            RefusalCode::Malformed,
            format!("the body cannot be read: {e}"),
            format!("データを読み取れません: {e}"),
        )
    }
}

async fn progress(State(st): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    let kiosk = match authenticate(&st, &headers).await {
        Ok(k) => k,
        Err(f) => return logged(&st, None, None, f).await,
    };
    let rows = async {
        let client = st.pool.get().await?;
        client
            .execute(
                "UPDATE kiosks SET last_seen_at = now() WHERE id = $1",
                &[&kiosk.id],
            )
            .await?;
        Ok::<_, ClubError>(
            client
                .query(
                    "SELECT kiosk_match, entry_count FROM matches WHERE kiosk_id = $1
                     ORDER BY kiosk_match",
                    &[&kiosk.id],
                )
                .await?,
        )
    }
    .await;
    match rows {
        Ok(rows) => axum::Json(Progress {
            kiosk: kiosk.name,
            matches: rows
                .iter()
                .map(|r| {
                    (
                        r.get::<_, i64>(0),
                        u64::try_from(r.get::<_, i32>(1)).unwrap_or(0),
                    )
                })
                .collect(),
        })
        .into_response(),
        Err(e) => unavailable(&e),
    }
}

async fn pairings(State(st): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    let kiosk = match authenticate(&st, &headers).await {
        Ok(k) => k,
        Err(f) => return logged(&st, None, None, f).await,
    };
    let rows = async {
        let client = st.pool.get().await?;
        Ok::<_, ClubError>(
            client
                .query(
                    "SELECT e.id, e.name, p.round, p.table_no, e.game, a.name, b.name
                     FROM pairings p
                     JOIN events e ON e.id = p.event_id
                     JOIN event_tables t ON t.event_id = p.event_id AND t.table_no = p.table_no
                     JOIN members a ON a.id = p.player_a
                     JOIN members b ON b.id = p.player_b
                     LEFT JOIN matches m ON m.id = p.match_id
                     WHERE t.kiosk_id = $1 AND p.manual IS NULL
                       AND (p.match_id IS NULL OR m.result IS NULL)
                       AND p.round = (SELECT max(r.round) FROM rounds r WHERE r.event_id = p.event_id)
                     ORDER BY e.id, p.round, p.table_no",
                    &[&kiosk.id],
                )
                .await?,
        )
    }
    .await;
    match rows {
        Ok(rows) => axum::Json(Pairings {
            pairings: rows
                .iter()
                .map(|r| Pairing {
                    event: r.get(0),
                    event_name: r.get(1),
                    round: u32::try_from(r.get::<_, i32>(2)).unwrap_or(0),
                    table: u32::try_from(r.get::<_, i32>(3)).unwrap_or(0),
                    game: r.get(4),
                    players: vec![r.get(5), r.get(6)],
                })
                .collect(),
        })
        .into_response(),
        Err(e) => unavailable(&e),
    }
}

async fn has_catalogue(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(sha): Path<String>,
) -> Response {
    if let Err(f) = authenticate(&st, &headers).await {
        return logged(&st, None, None, f).await;
    }
    let found = async {
        let client = st.pool.get().await?;
        Ok::<_, ClubError>(
            client
                .query_opt("SELECT 1 FROM catalogues WHERE sha256 = $1", &[&sha])
                .await?
                .is_some(),
        )
    }
    .await;
    match found {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => refusal_response(&refusal(
            RefusalCode::NotFound,
            format!("no catalogue {sha}"),
            format!("カタログ {sha} はありません"),
        )),
        Err(e) => unavailable(&e),
    }
}

async fn put_catalogue(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(sha): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let kiosk = match authenticate(&st, &headers).await {
        Ok(k) => k,
        Err(f) => return logged(&st, None, None, f).await,
    };
    let refuse = |code, en: String, ja: String| Fail::Refused(refusal(code, en, ja));
    let body = match body {
        Ok(b) => b,
        Err(e) => {
            return logged(
                &st,
                Some(kiosk.id),
                None,
                Fail::Refused(body_refusal(&e, MAX_CATALOGUE_BYTES)),
            )
            .await;
        }
    };
    if !is_sha256_hex(&sha) || sha256_hex(&body) != sha {
        let f = refuse(
            RefusalCode::Malformed,
            format!(
                "the catalogue's SHA-256 is {}, not {sha}",
                sha256_hex(&body)
            ),
            format!(
                "カタログの SHA-256 は {} で、{sha} ではありません",
                sha256_hex(&body)
            ),
        );
        return logged(&st, Some(kiosk.id), None, f).await;
    }
    let Ok(text) = std::str::from_utf8(&body) else {
        let f = refuse(
            RefusalCode::Malformed,
            "a catalogue is UTF-8 text".into(),
            "カタログは UTF-8 のテキストです".into(),
        );
        return logged(&st, Some(kiosk.id), None, f).await;
    };
    let cat = match tokio::task::block_in_place(|| Catalogue::load(&sha, text)) {
        Ok(c) => c,
        Err(e) => {
            let f = refuse(
                RefusalCode::Rejected,
                format!("the catalogue does not load: {e}"),
                format!("カタログを読み込めません: {e}"),
            );
            return logged(&st, Some(kiosk.id), None, f).await;
        }
    };
    // A built-in demo set is known here by its text: a catalogue under a demo set's id that
    // is not that text could make any move "legal", so it is not taken.
    let demo = cat.game.descriptor().demo;
    let demo_id = tokio::task::block_in_place(|| Catalogue::builtin(cat.game).map(|c| c.set.id));
    if demo_id.as_deref() == Ok(cat.set.id.as_str()) && catalogue_sha256(demo.text) != sha {
        let expected = catalogue_sha256(demo.text);
        let set = &cat.set.id;
        let f = refuse(
            RefusalCode::Unverifiable,
            format!(
                "catalogue {sha} claims the built-in demo set {set}, but it is not that set's text \
                 in this server's build (version {expected}): matches played with it cannot be \
                 verified (run the same Tableside version on the kiosks and the club)"
            ),
            format!(
                "カタログ {sha} は組み込みのデモセット {set} を名乗っていますが、このサーバーの版のデモセット（版 {expected}）と内容が違います。\
                 このカタログで遊んだ対戦は検証できません（キオスクとクラブで同じ版の Tableside を使ってください）"
            ),
        );
        return logged(&st, Some(kiosk.id), None, f).await;
    }
    let stored = async {
        let client = st.pool.get().await?;
        client
            .execute(
                "INSERT INTO catalogues (sha256, game, set_id, body, uploaded_by)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING",
                &[&sha, &cat.game.as_str(), &cat.set.id, &text, &kiosk.id],
            )
            .await?;
        Ok::<_, ClubError>(())
    }
    .await;
    match stored {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => unavailable(&e),
    }
}
