//! What the shop does from the command line: kiosks and their tokens, members and name links,
//! seasons, and club nights (events: players, tables, rounds, hand-entered results).

use crate::error::{ClubError, usage};
use crate::push::name_key;
use crate::swiss::{self, Result2};
use club_protocol::sha256_hex;
use deadpool_postgres::{GenericClient, Pool};

/// The prefix of every kiosk token.
pub const TOKEN_PREFIX: &str = "tsk_";

/// A new random kiosk token: `tsk_` and 64 hex digits (256 bits from the operating system).
pub fn new_token() -> Result<String, ClubError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ClubError::Random(e.to_string()))?;
    let mut token = String::from(TOKEN_PREFIX);
    for b in bytes {
        token.push_str(&format!("{b:02x}"));
    }
    Ok(token)
}

/// A new token and the SHA-256 the server keeps of it.
fn token_and_hash() -> Result<(String, String), ClubError> {
    let token = new_token()?;
    let hash = sha256_hex(token.as_bytes());
    Ok((token, hash))
}

/// True for a kiosk name the server accepts: 1–64 of `A-Z a-z 0-9 _ . -`, starting with a
/// letter or digit (it appears in URLs and on the pages).
pub fn valid_kiosk_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Registers a kiosk and returns its token, which is stored only as its SHA-256: print it once.
pub async fn add_kiosk(pool: &Pool, name: &str) -> Result<String, ClubError> {
    if !valid_kiosk_name(name) {
        return Err(usage(
            format!(
                "`{name}` is not a kiosk name: use 1–64 letters, digits, `_`, `.` or `-` (e.g. table-1)"
            ),
            format!(
                "`{name}` はキオスク名に使えません。英数字と `_` `.` `-` を 1〜64 文字で（例: table-1）"
            ),
        ));
    }
    let (token, hash) = token_and_hash()?;
    let client = pool.get().await?;
    let inserted = client
        .execute(
            "INSERT INTO kiosks (name, token_sha256) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            &[&name, &hash],
        )
        .await?;
    if inserted == 0 {
        return Err(usage(
            format!(
                "kiosk `{name}` exists already (`tableside-club kiosk token {name}` issues it a new token)"
            ),
            format!(
                "キオスク `{name}` はもう登録されています（新しいトークンは `tableside-club kiosk token {name}` で発行できます）"
            ),
        ));
    }
    Ok(token)
}

/// Issues an existing kiosk a new token; the old one stops working at once.
pub async fn renew_token(pool: &Pool, name: &str) -> Result<String, ClubError> {
    let (token, hash) = token_and_hash()?;
    let client = pool.get().await?;
    let n = client
        .execute(
            "UPDATE kiosks SET token_sha256 = $2 WHERE name = $1",
            &[&name, &hash],
        )
        .await?;
    if n == 0 {
        return Err(no_kiosk(name));
    }
    Ok(token)
}

/// The kiosks: (name, matches stored, last seen as text, if ever), by name.
pub async fn list_kiosks(pool: &Pool) -> Result<Vec<(String, i64, Option<String>)>, ClubError> {
    let client = pool.get().await?;
    let rows = client
        .query(
            "SELECT k.name, (SELECT count(*) FROM matches m WHERE m.kiosk_id = k.id),
                    to_char(k.last_seen_at, 'YYYY-MM-DD HH24:MI:SS TZ')
             FROM kiosks k ORDER BY k.name",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}

async fn kiosk_id(client: &impl GenericClient, name: &str) -> Result<i64, ClubError> {
    client
        .query_opt("SELECT id FROM kiosks WHERE name = $1", &[&name])
        .await?
        .map(|r| r.get(0))
        .ok_or_else(|| no_kiosk(name))
}

fn no_kiosk(name: &str) -> ClubError {
    usage(
        format!("no kiosk `{name}` (see `tableside-club kiosk list`)"),
        format!("キオスク `{name}` はありません（`tableside-club kiosk list` で一覧を見られます）"),
    )
}

/// Adds a member (or gives an existing one of that name the member number); returns the id.
pub async fn add_member(pool: &Pool, name: &str, number: Option<&str>) -> Result<i64, ClubError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(usage(
            "a member's name has 1–100 characters",
            "会員の名前は 1〜100 文字です",
        ));
    }
    let client = pool.get().await?;
    let row = client
        .query_one(
            "INSERT INTO members (name, name_key, number) VALUES ($1, $2, $3)
             ON CONFLICT (name_key) DO UPDATE SET number = coalesce(EXCLUDED.number, members.number)
             RETURNING id",
            &[&name, &name_key(name), &number],
        )
        .await
        .map_err(|e| match e.code() {
            Some(c) if *c == tokio_postgres::error::SqlState::UNIQUE_VIOLATION => {
                let n = number.unwrap_or("");
                usage(
                    format!("member number {n} is taken"),
                    format!("会員番号 {n} はもう使われています"),
                )
            }
            _ => ClubError::Db(e),
        })?;
    Ok(row.get(0))
}

/// The members: (id, name, number), by name.
pub async fn list_members(pool: &Pool) -> Result<Vec<(i64, String, Option<String>)>, ClubError> {
    let client = pool.get().await?;
    let rows = client
        .query(
            "SELECT id, name, number FROM members ORDER BY name_key, id",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}

/// Links a kiosk's player name to a member once: the name's past and future matches count for
/// that member. The statistics are recounted.
pub async fn link_name(
    pool: &Pool,
    kiosk: &str,
    player: &str,
    member: i64,
) -> Result<(), ClubError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.batch_execute("LOCK TABLE season_stats, game_days IN EXCLUSIVE MODE")
        .await?;
    let kiosk = kiosk_id(&tx, kiosk).await?;
    if tx
        .query_opt("SELECT 1 FROM members WHERE id = $1", &[&member])
        .await?
        .is_none()
    {
        return Err(usage(
            format!("no member {member} (see `tableside-club member list`)"),
            format!("会員 {member} はいません（`tableside-club member list` で一覧を見られます）"),
        ));
    }
    tx.execute(
        "INSERT INTO player_names (kiosk_id, name, member_id, linked) VALUES ($1, $2, $3, true)
         ON CONFLICT (kiosk_id, name) DO UPDATE SET member_id = EXCLUDED.member_id, linked = true",
        &[&kiosk, &player, &member],
    )
    .await?;
    tx.execute(
        "UPDATE match_players SET member_id = $3 WHERE kiosk_id = $1 AND name = $2",
        &[&kiosk, &player, &member],
    )
    .await?;
    rebuild_stats(&tx).await?;
    tx.commit().await?;
    Ok(())
}

/// Recounts the statistics and the per-day counts of matches from the matches (after links or
/// seasons change).
pub async fn rebuild_stats(client: &impl GenericClient) -> Result<(), ClubError> {
    // Pushes wait meanwhile (their counts go in after the recount, never lost in it); the
    // pages keep reading.
    client
        .batch_execute("LOCK TABLE season_stats, game_days IN EXCLUSIVE MODE")
        .await?;
    client.execute("DELETE FROM season_stats", &[]).await?;
    client
        .execute(
            "INSERT INTO season_stats (season_id, game, member_id, deck_name, played, won, drawn)
             SELECT s.id, m.game, p.member_id, p.deck_name, count(*),
                    count(*) FILTER (WHERE m.result = 'win' AND m.winner_seat = p.seat),
                    count(*) FILTER (WHERE m.result = 'draw')
             FROM matches m
             JOIN match_players p ON p.match_id = m.id
             JOIN (SELECT 0::bigint AS id, '-infinity'::date AS starts_on, 'infinity'::date AS ends_on
                   UNION ALL SELECT id, starts_on, ends_on FROM seasons) s
               ON m.played_on BETWEEN s.starts_on AND s.ends_on
             WHERE m.result IS NOT NULL
             GROUP BY s.id, m.game, p.member_id, p.deck_name",
            &[],
        )
        .await?;
    client.execute("DELETE FROM game_days", &[]).await?;
    client
        .execute(
            "INSERT INTO game_days (played_on, game, kiosk_id, finished, drawn)
             SELECT played_on, game, kiosk_id, count(*), count(*) FILTER (WHERE result = 'draw')
             FROM matches WHERE result IS NOT NULL
             GROUP BY played_on, game, kiosk_id",
            &[],
        )
        .await?;
    Ok(())
}

fn check_date(text: &str) -> Result<(), ClubError> {
    let ok = text.len() == 10
        && text.char_indices().all(|(i, c)| {
            if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
    if ok {
        Ok(())
    } else {
        Err(usage(
            format!("`{text}` is not a date like 2026-04-01"),
            format!("`{text}` は 2026-04-01 のような日付ではありません"),
        ))
    }
}

/// Adds a season: a named range of days (both included); its standings are counted at once.
pub async fn add_season(pool: &Pool, name: &str, from: &str, to: &str) -> Result<(), ClubError> {
    check_date(from)?;
    check_date(to)?;
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.batch_execute("LOCK TABLE season_stats, game_days IN EXCLUSIVE MODE")
        .await?;
    tx
        .execute(
            "INSERT INTO seasons (name, starts_on, ends_on) VALUES ($1, $2::text::date, $3::text::date)",
            &[&name, &from, &to],
        )
        .await
        .map_err(|e| match e.code() {
            Some(_) => {
                let why = e.as_db_error().map_or_else(|| e.to_string(), |d| d.message().to_owned());
                usage(
                    format!("season `{name}` from {from} to {to} cannot be added: {why}"),
                    format!("シーズン `{name}`（{from}〜{to}）を追加できません: {why}"),
                )
            }
            None => ClubError::Db(e),
        })?;
    rebuild_stats(&tx).await?;
    tx.commit().await?;
    Ok(())
}

/// Creates a club night of `game` with `rounds` Swiss rounds, its players (member names; a
/// new name becomes a member) and its tables (kiosk names, table 1 first). Returns its id.
pub async fn create_event(
    pool: &Pool,
    name: &str,
    game: &str,
    rounds: u32,
    players: &[String],
    tables: &[String],
) -> Result<i64, ClubError> {
    if cards::core::GameId::parse(game).is_none() {
        let known = cards::core::GameId::ALL
            .map(cards::core::GameId::as_str)
            .join(", ");
        return Err(usage(
            format!("unknown game `{game}` (one of: {known})"),
            format!("`{game}` というゲームはありません（{known} のどれか）"),
        ));
    }
    if players.len() < 2 {
        return Err(usage(
            "a club night needs at least 2 players",
            "大会には 2 人以上のプレイヤーが必要です",
        ));
    }
    let rounds = i32::try_from(rounds).unwrap_or(i32::MAX);
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    let id: i64 = tx
        .query_one(
            "INSERT INTO events (name, game, rounds, held_on)
             VALUES ($1, $2, $3, (now() AT TIME ZONE (SELECT value FROM settings WHERE key = 'timezone'))::date)
             RETURNING id",
            &[&name, &game, &rounds],
        )
        .await
        .map_err(|e| match e.code() {
            Some(_) => {
                let why = e.as_db_error().map_or_else(|| e.to_string(), |d| d.message().to_owned());
                usage(
                    format!("the event cannot be created: {why}"),
                    format!("大会を作れません: {why}"),
                )
            }
            None => ClubError::Db(e),
        })?
        .get(0);
    for p in players {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        tx.execute(
            "INSERT INTO members (name, name_key) VALUES ($1, $2) ON CONFLICT (name_key) DO NOTHING",
            &[&p, &name_key(p)],
        )
        .await?;
        tx.execute(
            "INSERT INTO event_players (event_id, member_id)
             SELECT $1, id FROM members WHERE name_key = $2 ON CONFLICT DO NOTHING",
            &[&id, &name_key(p)],
        )
        .await?;
    }
    for (i, t) in tables.iter().enumerate() {
        let kiosk = kiosk_id(&tx, t.trim()).await?;
        let table = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO event_tables (event_id, table_no, kiosk_id) VALUES ($1, $2, $3)",
            &[&id, &table, &kiosk],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(id)
}

/// One pairing as the event page and the command line show it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingView {
    /// The round.
    pub round: i32,
    /// The table.
    pub table: i32,
    /// The kiosk at that table, if the event has one there.
    pub kiosk: Option<String>,
    /// The first player (member id, name).
    pub a: (i64, String),
    /// The second player, `None` for a bye.
    pub b: Option<(i64, String)>,
    /// The result, once in.
    pub result: Option<Result2>,
    /// The match that settled it, if one did.
    pub match_id: Option<i64>,
    /// True when the result was entered by hand.
    pub manual: bool,
}

/// A club night with everything its page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EventView {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The game.
    pub game: String,
    /// The rounds planned.
    pub rounds: i32,
    /// The day it is held, `YYYY-MM-DD`.
    pub held_on: String,
    /// Every pairing so far, by round and table.
    pub pairings: Vec<PairingView>,
    /// The players (member id, name), by name.
    pub players: Vec<(i64, String)>,
    /// The standings with tie-breaks.
    pub standings: Vec<swiss::Standing>,
}

impl EventView {
    /// The latest round paired so far (0 before the first).
    pub fn current_round(&self) -> i32 {
        self.pairings.iter().map(|p| p.round).max().unwrap_or(0)
    }

    /// A player's name by member id.
    pub fn name(&self, member: i64) -> &str {
        self.players
            .iter()
            .find(|(id, _)| *id == member)
            .map_or("?", |(_, n)| n.as_str())
    }

    fn games(&self) -> Vec<swiss::Game> {
        self.pairings
            .iter()
            .map(|p| swiss::Game {
                a: p.a.0,
                b: p.b.as_ref().map(|b| b.0),
                result: p.result,
            })
            .collect()
    }
}

/// The club nights: (id, name, game, day), newest first.
pub async fn list_events(
    client: &impl GenericClient,
) -> Result<Vec<(i64, String, String, String)>, ClubError> {
    let rows = client
        .query(
            "SELECT id, name, game, held_on::text FROM events ORDER BY held_on DESC, id DESC LIMIT 200",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect())
}

/// Reads a club night with its pairings, results and standings.
pub async fn event(client: &impl GenericClient, id: i64) -> Result<Option<EventView>, ClubError> {
    let Some(e) = client
        .query_opt(
            "SELECT name, game, rounds, held_on::text FROM events WHERE id = $1",
            &[&id],
        )
        .await?
    else {
        return Ok(None);
    };
    let players: Vec<(i64, String)> = client
        .query(
            "SELECT m.id, m.name FROM event_players p JOIN members m ON m.id = p.member_id
             WHERE p.event_id = $1 ORDER BY m.name_key, m.id",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let rows = client
        .query(
            "SELECT p.round, p.table_no, k.name, p.player_a, a.name, p.player_b, b.name,
                    p.manual, m.result, w.member_id, p.match_id
             FROM pairings p
             JOIN members a ON a.id = p.player_a
             LEFT JOIN members b ON b.id = p.player_b
             LEFT JOIN event_tables t ON t.event_id = p.event_id AND t.table_no = p.table_no
             LEFT JOIN kiosks k ON k.id = t.kiosk_id
             LEFT JOIN matches m ON m.id = p.match_id
             LEFT JOIN match_players w ON w.match_id = m.id AND w.seat = m.winner_seat
             WHERE p.event_id = $1
             ORDER BY p.round, p.table_no",
            &[&id],
        )
        .await?;
    let pairings: Vec<PairingView> = rows
        .iter()
        .map(|r| {
            let a: i64 = r.get(3);
            let b: Option<i64> = r.get(5);
            let manual: Option<String> = r.get(7);
            let result: Option<String> = r.get(8);
            let winner: Option<i64> = r.get(9);
            let outcome = match (manual.as_deref(), result.as_deref()) {
                (Some("a"), _) => Some(Result2::A),
                (Some("b"), _) => Some(Result2::B),
                (Some(_), _) => Some(Result2::Draw),
                (None, Some("draw")) => Some(Result2::Draw),
                (None, Some(_)) if winner == Some(a) => Some(Result2::A),
                (None, Some(_)) => Some(Result2::B),
                (None, None) => None,
            };
            PairingView {
                round: r.get(0),
                table: r.get(1),
                kiosk: r.get(2),
                a: (a, r.get(4)),
                b: b.map(|b| (b, r.get::<_, Option<String>>(6).unwrap_or_default())),
                result: if b.is_none() { None } else { outcome },
                match_id: r.get(10),
                manual: manual.is_some(),
            }
        })
        .collect();
    let mut view = EventView {
        id,
        name: e.get(0),
        game: e.get(1),
        rounds: e.get(2),
        held_on: e.get(3),
        pairings,
        players,
        standings: Vec::new(),
    };
    let ids: Vec<i64> = view.players.iter().map(|p| p.0).collect();
    view.standings = swiss::standings(&ids, &view.games());
    Ok(Some(view))
}

/// "no event N", in both languages.
pub fn no_event(id: i64) -> ClubError {
    usage(
        format!("no event {id} (see the club's /events page)"),
        format!("大会 {id} はありません（クラブの /events ページで一覧を見られます）"),
    )
}

/// Pairs the next round of a club night; refuses while a pairing of the current round has no
/// result, or after the last round. Returns the round number.
pub async fn pair_next_round(pool: &Pool, id: i64) -> Result<i32, ClubError> {
    let mut client = pool.get().await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT id FROM events WHERE id = $1 FOR UPDATE", &[&id])
        .await?;
    let view = event(&tx, id).await?.ok_or_else(|| no_event(id))?;
    let current = view.current_round();
    let open: Vec<String> = view
        .pairings
        .iter()
        .filter(|p| p.round == current && p.b.is_some() && p.result.is_none())
        .map(|p| p.table.to_string())
        .collect();
    if !open.is_empty() {
        let tables = open.join(", ");
        return Err(usage(
            format!(
                "round {current} is still being played at table {tables} (a finished match reports \
                 itself; `tableside-club event result` enters one by hand)"
            ),
            format!(
                "第{current}ラウンドはテーブル {tables} でまだ対戦中です（終わった対戦は自動で結果が入ります。\
                 手で入れるには `tableside-club event result`）"
            ),
        ));
    }
    if current >= view.rounds {
        let rounds = view.rounds;
        return Err(usage(
            format!("all {rounds} rounds of event {id} are paired"),
            format!("大会 {id} の全 {rounds} ラウンドの組み合わせはもう出ています"),
        ));
    }
    let round = current + 1;
    let ids: Vec<i64> = view.players.iter().map(|p| p.0).collect();
    let pairs = swiss::pair(id, &ids, &view.games());
    tx.execute(
        "INSERT INTO rounds (event_id, round) VALUES ($1, $2)",
        &[&id, &round],
    )
    .await?;
    for (i, (a, b)) in pairs.iter().enumerate() {
        let table = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO pairings (event_id, round, table_no, player_a, player_b) VALUES ($1, $2, $3, $4, $5)",
            &[&id, &round, &table, a, b],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(round)
}

/// Enters a result by hand (`a`, `b` or `draw`) for a table of a round, e.g. one played
/// without a kiosk. It overrides the match's result for the event.
pub async fn report_result(
    pool: &Pool,
    id: i64,
    round: i32,
    table: i32,
    result: &str,
) -> Result<(), ClubError> {
    if !matches!(result, "a" | "b" | "draw") {
        return Err(usage(
            format!("`{result}` is not a result: a (the first player won), b (the second) or draw"),
            format!(
                "`{result}` は結果ではありません: a（1 人目の勝ち）、b（2 人目の勝ち）、draw（引き分け）"
            ),
        ));
    }
    let client = pool.get().await?;
    let n = client
        .execute(
            "UPDATE pairings SET manual = $4 WHERE event_id = $1 AND round = $2 AND table_no = $3
             AND player_b IS NOT NULL",
            &[&id, &round, &table, &result],
        )
        .await?;
    if n == 0 {
        return Err(usage(
            format!("event {id} has no pairing at table {table} in round {round}"),
            format!("大会 {id} の第{round}ラウンドにテーブル {table} の組み合わせはありません"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_prefixed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert!(a.starts_with(TOKEN_PREFIX) && a.len() == 68, "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn kiosk_names_are_url_safe() {
        assert!(valid_kiosk_name("table-1"));
        assert!(valid_kiosk_name("T.2_b"));
        for bad in ["", "-x", "a b", "テーブル", "<script>", &"a".repeat(65)] {
            assert!(!valid_kiosk_name(bad), "{bad}");
        }
    }

    #[test]
    fn dates_look_like_dates() {
        assert!(check_date("2026-04-01").is_ok());
        assert!(check_date("2026-4-1").is_err());
        assert!(check_date("'; DROP").is_err());
    }
}
