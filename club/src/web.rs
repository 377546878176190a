//! The web pages: server-rendered HTML in Japanese and English, no JavaScript, readable on a
//! shop's TV (text grows with the screen) and on a phone (tables scroll sideways).
//!
//! - `/` tonight's tables with their live scores (refreshes every 10 s)
//! - `/standings?game=…&season=…` standings per game and season, win rates per deck
//! - `/players/{id}` a player's record
//! - `/matches/{id}?step=N` a match's step-by-step replay (replayed on the server)
//! - `/events`, `/events/{id}` club nights: pairings, tables, results, standings with tie-breaks
//!
//! `?lang=ja|en` picks the language (else the browser's `Accept-Language`, else Japanese).
//! Every text that comes from data goes through [`Esc`], which escapes `& < > " '`.

use crate::admin;
use crate::server::AppState;
use crate::stats::{self, MatchRow, Tally};
use crate::swiss::Result2;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use cards::catalogue::Catalogue;
use cards::core::Tracker;
use cards::game::MatchHeader;
use cards::matches::replay_json;
use serde::Deserialize;
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// Text escaped for HTML (element content and quoted attribute values).
pub struct Esc<'a>(pub &'a str);

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&#39;")?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

pub use crate::text::Lang;

/// What the pages need of a language beyond [`Lang`] itself.
trait PageLang {
    fn other(self) -> Lang;
    fn t(self) -> &'static Words;
}

impl PageLang for Lang {
    fn other(self) -> Lang {
        self.pick(Lang::Ja, Lang::En)
    }
    fn t(self) -> &'static Words {
        self.pick(&EN, &JA)
    }
}

/// The page's language: `ja` or `en` from the query, else English for an English browser,
/// else Japanese.
fn page_lang(param: Option<&str>, headers: &HeaderMap) -> Lang {
    match param {
        Some("en") => return Lang::En,
        Some("ja") => return Lang::Ja,
        _ => {}
    }
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if accept.trim_start().to_ascii_lowercase().starts_with("en") {
        Lang::En
    } else {
        Lang::Ja
    }
}

/// Every word of the pages, per language.
struct Words {
    club: &'static str,
    tonight: &'static str,
    standings: &'static str,
    events: &'static str,
    other_language: &'static str,
    table: &'static str,
    free: &'static str,
    turn: &'static str,
    entries: &'static str,
    updated: &'static str,
    winner: &'static str,
    draw: &'static str,
    playing: &'static str,
    rank: &'static str,
    player: &'static str,
    played: &'static str,
    won: &'static str,
    drawn: &'static str,
    lost: &'static str,
    points: &'static str,
    win_rate: &'static str,
    deck: &'static str,
    decks: &'static str,
    games: &'static str,
    matches: &'static str,
    all_time: &'static str,
    season: &'static str,
    no_matches: &'static str,
    record: &'static str,
    member_number: &'static str,
    recent: &'static str,
    opponents: &'static str,
    result: &'static str,
    replay: &'static str,
    step: &'static str,
    first: &'static str,
    prev: &'static str,
    next: &'static str,
    last: &'static str,
    state: &'static str,
    number: &'static str,
    log: &'static str,
    undone: &'static str,
    kiosk: &'static str,
    round: &'static str,
    bye: &'static str,
    pairings: &'static str,
    no_kiosk: &'static str,
    by_hand: &'static str,
    omw: &'static str,
    oomw: &'static str,
    tie_breaks: &'static str,
    not_found: &'static str,
    bad_request: &'static str,
    unavailable: &'static str,
    cannot_replay: &'static str,
    no_events: &'static str,
    of_rounds: &'static str,
}

const JA: Words = Words {
    club: "クラブ",
    tonight: "今夜のテーブル",
    standings: "順位表",
    events: "大会",
    other_language: "English",
    table: "テーブル",
    free: "空き",
    turn: "ターン",
    entries: "記録",
    updated: "更新",
    winner: "勝者",
    draw: "引き分け",
    playing: "対戦中",
    rank: "順位",
    player: "プレイヤー",
    played: "対戦数",
    won: "勝",
    drawn: "分",
    lost: "負",
    points: "勝点",
    win_rate: "勝率",
    deck: "デッキ",
    decks: "デッキ別勝率",
    games: "ゲーム",
    matches: "対戦",
    all_time: "通算",
    season: "シーズン",
    no_matches: "まだ終わった対戦はありません。",
    record: "戦績",
    member_number: "会員番号",
    recent: "最近の対戦",
    opponents: "対戦相手",
    result: "結果",
    replay: "リプレイ",
    step: "手順",
    first: "« 最初",
    prev: "‹ 前へ",
    next: "次へ ›",
    last: "最後 »",
    state: "この時点の状態",
    number: "数値",
    log: "記録",
    undone: "取り消し済み",
    kiosk: "キオスク",
    round: "ラウンド",
    bye: "不戦勝（BYE）",
    pairings: "組み合わせ",
    no_kiosk: "キオスクなし",
    by_hand: "手入力",
    omw: "OMW%",
    oomw: "OOMW%",
    tie_breaks: "順位の決め方: 勝点（勝ち 3・引き分け 1・BYE 3）→ OMW%（対戦相手の勝率の平均、各 33% 以上）→ OOMW%（対戦相手の OMW% の平均）→ 登録順。",
    not_found: "見つかりません",
    bad_request: "このページへの指定が正しくありません",
    unavailable: "クラブサーバーがデータベースに接続できません。しばらくしてから再読み込みしてください。",
    cannot_replay: "この対戦はリプレイできません",
    no_events: "大会はまだありません。",
    of_rounds: "ラウンド数",
};

const EN: Words = Words {
    club: "Club",
    tonight: "Tonight's tables",
    standings: "Standings",
    events: "Club nights",
    other_language: "日本語",
    table: "Table",
    free: "free",
    turn: "Turn",
    entries: "entries",
    updated: "updated",
    winner: "Winner",
    draw: "Draw",
    playing: "playing",
    rank: "Rank",
    player: "Player",
    played: "Played",
    won: "W",
    drawn: "D",
    lost: "L",
    points: "Points",
    win_rate: "Win rate",
    deck: "Deck",
    decks: "Win rates per deck",
    games: "Games",
    matches: "Matches",
    all_time: "All time",
    season: "Season",
    no_matches: "No finished matches yet.",
    record: "Record",
    member_number: "Member number",
    recent: "Latest matches",
    opponents: "Opponents",
    result: "Result",
    replay: "Replay",
    step: "Step",
    first: "« First",
    prev: "‹ Back",
    next: "Next ›",
    last: "Last »",
    state: "The state at this step",
    number: "Tracked number",
    log: "Log",
    undone: "undone",
    kiosk: "Kiosk",
    round: "Round",
    bye: "Bye",
    pairings: "Pairings",
    no_kiosk: "no kiosk",
    by_hand: "entered by hand",
    omw: "OMW%",
    oomw: "OOMW%",
    tie_breaks: "Ranked by match points (win 3, draw 1, bye 3), then OMW% (the mean of the opponents' match-win rates, each at least 33 %), then OOMW% (the mean of the opponents' OMW%), then registration order.",
    not_found: "Not found",
    bad_request: "This page was asked for with something it cannot use",
    unavailable: "The club server cannot reach its database. Reload in a moment.",
    cannot_replay: "This match cannot be replayed",
    no_events: "No club nights yet.",
    of_rounds: "rounds",
};

/// A game's name for the pages.
pub fn game_title(game: &str) -> String {
    match cards::core::GameId::parse(game).map(cards::core::GameId::descriptor) {
        Some(d) if d.name_en == d.name_ja => d.name_en.to_owned(),
        Some(d) => format!("{} {}", d.name_en, d.name_ja),
        None => game.to_owned(),
    }
}

/// The query every page takes; anything else is refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    lang: Option<String>,
    game: Option<String>,
    season: Option<i64>,
    step: Option<usize>,
}

/// The page routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(tonight))
        .route("/standings", get(standings))
        .route("/players/{id}", get(player))
        .route("/matches/{id}", get(replay))
        .route("/events", get(events))
        .route("/events/{id}", get(event))
}

const CSS: &str = "
:root{color-scheme:light dark;--accent:#1f6feb;--warn:#b3261e;--line:#8884}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,'Noto Sans CJK JP','Hiragino Sans','Yu Gothic',sans-serif;
 font-size:clamp(16px,1.15vw + 8px,40px);line-height:1.45}
header{display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center;padding:.5em 1em;
 background:var(--accent);color:#fff}
header a{color:#fff;font-weight:600;text-decoration:none;padding:.35em .2em;display:inline-block}
header .club{font-size:1.3em;font-weight:700;margin-right:auto}
main{padding:.6em 1em 2em;max-width:120em;margin:0 auto}
h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.25em;margin:1em 0 .4em}
a{color:var(--accent)}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;min-width:20em}
th,td{padding:.35em .6em;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,18em),1fr));gap:.8em}
.card{border:2px solid var(--line);border-radius:.5em;padding:.6em .8em}
.card h2{margin:0 0 .3em}
.score{font-size:1.3em;font-weight:700;font-variant-numeric:tabular-nums}
.muted{opacity:.7;font-size:.9em}
.done{color:var(--accent);font-weight:700}
.nav a{display:inline-block;padding:.4em .7em;margin:.15em;border:1px solid var(--line);border-radius:.4em;text-decoration:none}
.nav a.on{background:var(--accent);color:#fff}
ol.log{padding-left:2.5em}ol.log li.now{font-weight:700;background:#1f6feb22}
.undone{text-decoration:line-through;opacity:.6}
";

fn href(path: &str, lang: Lang, query: &[(&str, String)]) -> String {
    let mut s = format!("{path}?lang={}", lang.code());
    for (k, v) in query {
        s.push('&');
        s.push_str(k);
        s.push('=');
        s.push_str(&club_protocol::percent_encode(v));
    }
    s
}

/// A whole page around `body` (already HTML). `refresh`: seconds between automatic reloads.
fn page(lang: Lang, title: &str, refresh: Option<u32>, here: &str, body: &str) -> Response {
    let t = lang.t();
    let mut h = String::with_capacity(body.len() + 2048);
    let _ = write!(
        h,
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">",
        lang.code()
    );
    if let Some(s) = refresh {
        let _ = write!(h, "<meta http-equiv=\"refresh\" content=\"{s}\">");
    }
    let _ = write!(
        h,
        "<title>{} · Tableside {}</title><style>{CSS}</style></head><body><header>\
         <span class=\"club\">Tableside {}</span>\
         <a href=\"{}\">{}</a><a href=\"{}\">{}</a><a href=\"{}\">{}</a>\
         <a href=\"{}\" hreflang=\"{}\">{}</a></header><main>{body}</main></body></html>",
        Esc(title),
        t.club,
        t.club,
        Esc(&href("/", lang, &[])),
        t.tonight,
        Esc(&href("/standings", lang, &[])),
        t.standings,
        Esc(&href("/events", lang, &[])),
        t.events,
        Esc(&href(here, lang.other(), &[])),
        lang.other().code(),
        t.other_language,
    );
    ([(header::CACHE_CONTROL, "no-store")], Html(h)).into_response()
}

fn error_page(lang: Lang, status: StatusCode, title: &str, detail: &str) -> Response {
    let body = format!("<h1>{}</h1><p>{}</p>", Esc(title), Esc(detail));
    let mut r = page(lang, title, None, "/", &body);
    *r.status_mut() = status;
    r
}

/// The page for an unknown address.
pub fn not_found() -> Response {
    error_page(
        Lang::Ja,
        StatusCode::NOT_FOUND,
        "見つかりません · Not found",
        "このページはありません。 There is no such page.",
    )
}

fn unavailable(lang: Lang, e: &crate::error::ClubError) -> Response {
    eprintln!("tableside-club: page / ページ: {}", e.both());
    error_page(
        lang,
        StatusCode::SERVICE_UNAVAILABLE,
        lang.t().unavailable,
        "",
    )
}

/// The page's data, or the page that says why there is none: 404, or 503 when the database
/// cannot be reached.
// A page is the error value here: it goes straight back to the browser, never further up.
#[allow(clippy::result_large_err)]
fn found<T>(lang: Lang, data: Result<Option<T>, crate::error::ClubError>) -> Result<T, Response> {
    match data {
        Ok(Some(x)) => Ok(x),
        Ok(None) => Err(error_page(
            lang,
            StatusCode::NOT_FOUND,
            lang.t().not_found,
            "",
        )),
        Err(e) => Err(unavailable(lang, &e)),
    }
}

/// Reads the query, or answers with a 400 page naming the problem.
#[allow(clippy::result_large_err)]
fn query(
    q: Result<Query<PageQuery>, QueryRejection>,
    headers: &HeaderMap,
) -> Result<(PageQuery, Lang), Response> {
    match q {
        Ok(Query(q)) => {
            let lang = page_lang(q.lang.as_deref(), headers);
            Ok((q, lang))
        }
        Err(e) => {
            let lang = page_lang(None, headers);
            Err(error_page(
                lang,
                StatusCode::BAD_REQUEST,
                lang.t().bad_request,
                &e.body_text(),
            ))
        }
    }
}

fn names(m: &MatchRow) -> String {
    m.seats
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join(" vs ")
}

fn result_text(lang: Lang, m: &MatchRow) -> String {
    let t = lang.t();
    match m.result.as_deref() {
        Some("win") => {
            let name = m
                .winner
                .and_then(|w| m.seats.iter().find(|s| s.seat == w))
                .map_or("?", |s| s.name.as_str());
            format!("{}: {name}", t.winner)
        }
        Some(_) => t.draw.to_owned(),
        None => t.playing.to_owned(),
    }
}

/// How a replayed match ended, in the page's language (the reason as the rules core gives it).
fn outcome_text(lang: Lang, o: &cards::core::Outcome, players: &[String]) -> String {
    match o {
        cards::core::Outcome::Win { winner, reason } => {
            let name = players.get(*winner).map_or("?", String::as_str);
            lang.pick(
                format!("{name} wins: {reason}"),
                format!("{name} の勝ち: {reason}"),
            )
        }
        cards::core::Outcome::Draw { reason } => {
            lang.pick(format!("Draw: {reason}"), format!("引き分け: {reason}"))
        }
    }
}

fn player_link(lang: Lang, member: i64, name: &str) -> String {
    format!(
        "<a href=\"{}\">{}</a>",
        Esc(&href(&format!("/players/{member}"), lang, &[])),
        Esc(name)
    )
}

fn match_link(lang: Lang, id: i64, text: &str) -> String {
    format!(
        "<a href=\"{}\">{}</a>",
        Esc(&href(&format!("/matches/{id}"), lang, &[])),
        Esc(text)
    )
}

/// The live numbers of a match, one line per player: "Aki: SB (魂玉) 9 · …".
fn scores(m: &MatchRow) -> String {
    let trackers: Vec<Tracker> = m
        .trackers_json
        .as_deref()
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default();
    let mut out = String::new();
    for s in &m.seats {
        let seat = usize::try_from(s.seat).ok();
        // The first number big (SB, HP, …), the next two beside it.
        let mut mine = trackers.iter().filter(|t| t.id.player == seat);
        let first = mine
            .next()
            .map(|t| format!("{} {}", t.label, t.value))
            .unwrap_or_default();
        let rest: Vec<String> = mine
            .take(2)
            .map(|t| format!("{} {}", t.label, t.value))
            .collect();
        let _ = write!(
            out,
            "<div><b>{}</b> <span class=\"score\">{}</span> <span class=\"muted\">{}</span></div>",
            Esc(&s.name),
            Esc(&first),
            Esc(&rest.join(" · "))
        );
    }
    out
}

async fn tonight(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (_, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let data = async {
        let client = st.pool.get().await?;
        let tables = stats::tonight(&client).await?;
        let events = admin::list_events(&client).await?;
        let mut today_events = Vec::new();
        for (id, _, _, day) in events.iter().filter(|e| e.3 == tables.0) {
            let _ = day;
            if let Some(e) = admin::event(&client, *id).await? {
                today_events.push(e);
            }
        }
        Ok::<_, crate::error::ClubError>((tables, today_events))
    }
    .await;
    let ((today, tables), events) = match data {
        Ok(d) => d,
        Err(e) => return unavailable(lang, &e),
    };
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{} <span class=\"muted\">{}</span></h1><div class=\"tables\">",
        t.tonight,
        Esc(&today)
    );
    for (kiosk, m) in &tables {
        let _ = write!(b, "<section class=\"card\"><h2>{}</h2>", Esc(kiosk));
        match m {
            None => {
                let _ = write!(b, "<p class=\"muted\">{}</p>", t.free);
            }
            Some(m) => {
                let _ = write!(
                    b,
                    "<div class=\"muted\">{} · {}</div>{}",
                    Esc(&game_title(&m.game)),
                    match_link(lang, m.id, &names(m)),
                    scores(m)
                );
                let status = if m.result.is_some() {
                    format!("<span class=\"done\">{}</span>", Esc(&result_text(lang, m)))
                } else {
                    format!(
                        "{} {} · {}",
                        t.turn,
                        m.turn.unwrap_or(0),
                        Esc(m.phase.as_deref().unwrap_or(""))
                    )
                };
                let _ = write!(
                    b,
                    "<div>{status}</div><div class=\"muted\">{} {} · {} {}</div>",
                    m.entries,
                    t.entries,
                    t.updated,
                    Esc(&m.updated)
                );
            }
        }
        b.push_str("</section>");
    }
    b.push_str("</div>");
    for e in &events {
        event_pairings(&mut b, lang, e, e.current_round());
    }
    page(lang, t.tonight, Some(10), "/", &b)
}

fn event_pairings(b: &mut String, lang: Lang, e: &admin::EventView, round: i32) {
    let t = lang.t();
    if round == 0 {
        return;
    }
    let _ = write!(
        b,
        "<h2><a href=\"{}\">{}</a> · {} {round}</h2><div class=\"scroll\"><table><thead><tr>\
         <th class=\"n\">{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        Esc(&href(&format!("/events/{}", e.id), lang, &[])),
        Esc(&e.name),
        t.round,
        t.table,
        t.kiosk,
        t.pairings,
        t.result
    );
    for p in e.pairings.iter().filter(|p| p.round == round) {
        let players = match &p.b {
            Some(opp) => format!(
                "{} vs {}",
                player_link(lang, p.a.0, &p.a.1),
                player_link(lang, opp.0, &opp.1)
            ),
            None => format!("{} — {}", player_link(lang, p.a.0, &p.a.1), t.bye),
        };
        let result = match (p.result, &p.b) {
            (_, None) => t.bye.to_owned(),
            (None, _) => t.playing.to_owned(),
            (Some(Result2::Draw), _) => t.draw.to_owned(),
            (Some(Result2::A), _) => format!("{}: {}", t.winner, Esc(&p.a.1)),
            (Some(Result2::B), Some(opp)) => format!("{}: {}", t.winner, Esc(&opp.1)),
        };
        let result = match (p.match_id, p.manual) {
            (_, true) => format!("{result} <span class=\"muted\">({})</span>", t.by_hand),
            (Some(id), false) => format!("{result} · {}", match_link(lang, id, t.replay)),
            (None, false) => result,
        };
        let _ = write!(
            b,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{players}</td><td>{result}</td></tr>",
            p.table,
            Esc(p.kiosk.as_deref().unwrap_or(t.no_kiosk)),
        );
    }
    b.push_str("</tbody></table></div>");
}

fn tally_cells(tl: &Tally) -> String {
    format!(
        "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
        tl.played,
        tl.won,
        tl.drawn,
        tl.lost(),
        Esc(&tl.rate_text())
    )
}

fn tally_heads(t: &Words) -> String {
    format!(
        "<th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th>",
        t.played, t.won, t.drawn, t.lost, t.win_rate
    )
}

async fn standings(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (q, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let game = q.game.clone().unwrap_or_else(|| "jaken".into());
    if cards::core::GameId::parse(&game).is_none() {
        return error_page(lang, StatusCode::NOT_FOUND, t.not_found, &game);
    }
    let data = async {
        let client = st.pool.get().await?;
        let seasons = stats::seasons(&client).await?;
        let season = match q.season {
            Some(id) if id != 0 => seasons.iter().find(|s| s.id == id).cloned(),
            _ => Some(stats::Season::all_time()),
        };
        let Some(season) = season else {
            return Ok(None);
        };
        let rows = stats::standings(&client, &game, season.id).await?;
        let decks = stats::decks(&client, &game, season.id).await?;
        let games = stats::games(&client, &season.from, &season.to).await?;
        Ok::<_, crate::error::ClubError>(Some((seasons, season, rows, decks, games)))
    }
    .await;
    let (seasons, season, rows, decks, games) = match data {
        Ok(Some(d)) => d,
        Ok(None) => return error_page(lang, StatusCode::NOT_FOUND, t.not_found, t.season),
        Err(e) => return unavailable(lang, &e),
    };
    let season_name = if season.id == 0 {
        t.all_time.to_owned()
    } else {
        season.name.clone()
    };
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{} · {} · {}</h1><div class=\"nav\">",
        t.standings,
        Esc(&game_title(&game)),
        Esc(&season_name)
    );
    let season_q = season.id.to_string();
    for g in cards::core::GameId::ALL {
        let _ = write!(
            b,
            "<a href=\"{}\"{}>{}</a>",
            Esc(&href(
                "/standings",
                lang,
                &[("game", g.as_str().into()), ("season", season_q.clone())]
            )),
            if g.as_str() == game {
                " class=\"on\""
            } else {
                ""
            },
            Esc(&game_title(g.as_str()))
        );
    }
    b.push_str("</div><div class=\"nav\">");
    let mut all = vec![stats::Season::all_time()];
    all.extend(seasons);
    for s in &all {
        let name = if s.id == 0 {
            t.all_time.to_owned()
        } else {
            s.name.clone()
        };
        let _ = write!(
            b,
            "<a href=\"{}\"{}>{}</a>",
            Esc(&href(
                "/standings",
                lang,
                &[("game", game.clone()), ("season", s.id.to_string())]
            )),
            if s.id == season.id {
                " class=\"on\""
            } else {
                ""
            },
            Esc(&name)
        );
    }
    b.push_str("</div>");
    if rows.is_empty() {
        let _ = write!(b, "<p>{}</p>", t.no_matches);
    } else {
        let _ = write!(
            b,
            "<div class=\"scroll\"><table id=\"standings\"><thead><tr><th class=\"n\">{}</th><th>{}</th><th class=\"n\">{}</th>{}</tr></thead><tbody>",
            t.rank,
            t.player,
            t.points,
            tally_heads(t)
        );
        for r in &rows {
            let _ = write!(
                b,
                "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td>{}</tr>",
                r.rank,
                player_link(lang, r.member, &r.name),
                r.tally.points(),
                tally_cells(&r.tally)
            );
        }
        b.push_str("</tbody></table></div>");
    }
    if !decks.is_empty() {
        let _ = write!(
            b,
            "<h2>{}</h2><div class=\"scroll\"><table><thead><tr><th>{}</th>{}</tr></thead><tbody>",
            t.decks,
            t.deck,
            tally_heads(t)
        );
        for (d, tl) in &decks {
            let _ = write!(b, "<tr><td>{}</td>{}</tr>", Esc(d), tally_cells(tl));
        }
        b.push_str("</tbody></table></div>");
    }
    if !games.is_empty() {
        let _ = write!(
            b,
            "<h2>{}</h2><div class=\"scroll\"><table><thead><tr><th>{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th></tr></thead><tbody>",
            t.games, t.games, t.matches, t.draw
        );
        for (g, n, d) in &games {
            let _ = write!(
                b,
                "<tr><td>{}</td><td class=\"n\">{n}</td><td class=\"n\">{d}</td></tr>",
                Esc(&game_title(g))
            );
        }
        b.push_str("</tbody></table></div>");
    }
    page(lang, t.standings, Some(60), "/standings", &b)
}

async fn player(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (_, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let data = async {
        let client = st.pool.get().await?;
        stats::player(&client, id).await
    }
    .await;
    let p = match found(lang, data) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let mut b = String::new();
    let _ = write!(b, "<h1>{} · {}</h1>", Esc(&p.name), t.record);
    if let Some(n) = &p.number {
        let _ = write!(b, "<p>{}: {}</p>", t.member_number, Esc(n));
    }
    if p.games.is_empty() {
        let _ = write!(b, "<p>{}</p>", t.no_matches);
    } else {
        let _ = write!(
            b,
            "<div class=\"scroll\"><table><thead><tr><th>{}</th>{}</tr></thead><tbody>",
            t.games,
            tally_heads(t)
        );
        for (g, tl) in &p.games {
            let _ = write!(
                b,
                "<tr><td>{}</td>{}</tr>",
                Esc(&game_title(g)),
                tally_cells(tl)
            );
        }
        b.push_str("</tbody></table></div>");
    }
    if !p.recent.is_empty() {
        let _ = write!(
            b,
            "<h2>{}</h2><div class=\"scroll\"><table id=\"recent\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            t.recent, t.matches, t.games, t.opponents, t.deck, t.result
        );
        for m in &p.recent {
            let me = m.seats.iter().find(|s| s.member == p.id);
            let opponents: Vec<String> = m
                .seats
                .iter()
                .filter(|s| s.member != p.id)
                .map(|s| player_link(lang, s.member, &s.name))
                .collect();
            let _ = write!(
                b,
                "<tr><td>{} <span class=\"muted\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                match_link(lang, m.id, &format!("#{}", m.id)),
                Esc(&m.day),
                Esc(&game_title(&m.game)),
                opponents.join(", "),
                Esc(me.map_or("", |s| s.deck.as_str())),
                Esc(&result_text(lang, m))
            );
        }
        b.push_str("</tbody></table></div>");
    }
    page(lang, &p.name, None, &format!("/players/{id}"), &b)
}

async fn replay(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (q, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let data = async {
        let client = st.pool.get().await?;
        stats::match_log(&client, id).await
    }
    .await;
    let log = match found(lang, data) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let total = log.inputs.len();
    let step = q.step.unwrap_or(total).min(total);
    let replayed = tokio::task::block_in_place(|| {
        let header: MatchHeader =
            serde_json::from_str(&log.header_json).map_err(|e| e.to_string())?;
        let cat =
            Catalogue::load(&log.catalogue_sha256, &log.catalogue).map_err(|e| e.to_string())?;
        replay_json(header, &cat, log.inputs[..step].iter().map(String::as_str))
            .map_err(|e| e.to_string())
    });
    let m = match replayed {
        Ok(m) => m,
        Err(e) => return error_page(lang, StatusCode::INTERNAL_SERVER_ERROR, t.cannot_replay, &e),
    };
    let row = &log.row;
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{} · {}</h1><p>{} · {} {} · {} · <span id=\"result\">{}</span></p>",
        t.replay,
        Esc(&names(row)),
        Esc(&game_title(&row.game)),
        t.kiosk,
        Esc(&row.kiosk),
        Esc(&row.day),
        Esc(&result_text(lang, row))
    );
    let path = format!("/matches/{id}");
    let link = |s: usize, text: &str, rel: &str| {
        format!(
            "<a rel=\"{rel}\" href=\"{}\">{}</a>",
            Esc(&href(&path, lang, &[("step", s.to_string())])),
            Esc(text)
        )
    };
    let _ = write!(
        b,
        "<div class=\"nav\">{}{}<span id=\"step\"> {} {step} / {total} </span>{}{}</div>",
        link(0, t.first, "first"),
        link(step.saturating_sub(1), t.prev, "prev"),
        t.step,
        link((step + 1).min(total), t.next, "next"),
        link(total, t.last, "last"),
    );
    let ctx = m.context();
    let _ = write!(
        b,
        "<h2>{}</h2><p>{} {} · {}</p>",
        t.state,
        t.turn,
        ctx.turn,
        Esc(&ctx.phase.step)
    );
    if let Some(o) = m.outcome() {
        let _ = write!(
            b,
            "<p class=\"done\">{}</p>",
            Esc(&outcome_text(lang, &o, &ctx.players))
        );
    }
    let _ = write!(
        b,
        "<div class=\"scroll\"><table id=\"trackers\"><thead><tr><th>{}</th><th>{}</th><th class=\"n\"></th></tr></thead><tbody>",
        t.player, t.number
    );
    for tr in m.trackers() {
        let who = tr
            .id
            .player
            .and_then(|p| ctx.players.get(p))
            .map_or("", String::as_str);
        let _ = write!(
            b,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td></tr>",
            Esc(who),
            Esc(&tr.label),
            tr.value
        );
    }
    b.push_str("</tbody></table></div>");
    let _ = write!(b, "<h2>{}</h2><ol class=\"log\" start=\"0\">", t.log);
    let lines = m.log();
    for (i, l) in lines.iter().enumerate() {
        let class = match (i + 1 == lines.len(), l.undone) {
            (true, true) => " class=\"now undone\"",
            (true, false) => " class=\"now\"",
            (false, true) => " class=\"undone\"",
            (false, false) => "",
        };
        let undone = if l.undone {
            format!(" ({})", t.undone)
        } else {
            String::new()
        };
        let _ = write!(b, "<li{class}>{}{undone}</li>", Esc(&l.text));
    }
    b.push_str("</ol>");
    page(lang, t.replay, None, &path, &b)
}

async fn events(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (_, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let data = async {
        let client = st.pool.get().await?;
        admin::list_events(&client).await
    }
    .await;
    let list = match data {
        Ok(l) => l,
        Err(e) => return unavailable(lang, &e),
    };
    let mut b = format!("<h1>{}</h1>", t.events);
    if list.is_empty() {
        let _ = write!(b, "<p>{}</p>", t.no_events);
    }
    b.push_str("<ul>");
    for (id, name, game, day) in &list {
        let _ = write!(
            b,
            "<li><a href=\"{}\">{}</a> · {} · {}</li>",
            Esc(&href(&format!("/events/{id}"), lang, &[])),
            Esc(name),
            Esc(&game_title(game)),
            Esc(day)
        );
    }
    b.push_str("</ul>");
    page(lang, t.events, Some(30), "/events", &b)
}

async fn event(
    State(st): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    q: Result<Query<PageQuery>, QueryRejection>,
) -> Response {
    let (_, lang) = match query(q, &headers) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let t = lang.t();
    let data = async {
        let client = st.pool.get().await?;
        admin::event(&client, id).await
    }
    .await;
    let e = match found(lang, data) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let mut b = String::new();
    let _ = write!(
        b,
        "<h1>{}</h1><p>{} · {} · {} {}</p>",
        Esc(&e.name),
        Esc(&game_title(&e.game)),
        Esc(&e.held_on),
        e.rounds,
        t.of_rounds
    );
    let _ = write!(
        b,
        "<h2>{}</h2><div class=\"scroll\"><table id=\"event-standings\"><thead><tr><th class=\"n\">{}</th><th>{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th><th class=\"n\">{}</th></tr></thead><tbody>",
        t.standings, t.rank, t.player, t.points, t.won, t.drawn, t.lost, t.omw, t.oomw
    );
    for s in &e.standings {
        let _ = write!(
            b,
            "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{:.1}</td><td class=\"n\">{:.1}</td></tr>",
            s.rank,
            player_link(lang, s.player, e.name(s.player)),
            s.points,
            s.wins,
            s.draws,
            s.losses,
            s.omw * 100.0,
            s.oomw * 100.0
        );
    }
    let _ = write!(
        b,
        "</tbody></table></div><p class=\"muted\">{}</p>",
        t.tie_breaks
    );
    for round in (1..=e.current_round()).rev() {
        event_pairings(&mut b, lang, &e, round);
    }
    page(lang, &e.name, Some(15), &format!("/events/{id}"), &b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_special_character_is_escaped() {
        assert_eq!(
            Esc("<script>alert('x') & \"y\"</script>").to_string(),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
        assert_eq!(Esc("灯り小僧").to_string(), "灯り小僧");
    }

    #[test]
    fn the_language_comes_from_the_query_then_the_browser() {
        let mut h = HeaderMap::new();
        assert_eq!(page_lang(None, &h), Lang::Ja);
        h.insert(header::ACCEPT_LANGUAGE, "en-GB,en;q=0.9".parse().unwrap());
        assert_eq!(page_lang(None, &h), Lang::En);
        assert_eq!(page_lang(Some("ja"), &h), Lang::Ja);
    }

    #[test]
    fn links_keep_the_language_and_encode_values() {
        assert_eq!(
            href("/standings", Lang::En, &[("game", "a&b".into())]),
            "/standings?lang=en&game=a%26b"
        );
    }
}
