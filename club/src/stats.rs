//! The club-wide statistics, in SQL: the history screen's win rates per game, player and deck,
//! over a season, from the `season_stats` table the push transaction keeps; a player's record;
//! tonight's tables.

use crate::error::ClubError;
use deadpool_postgres::GenericClient;

/// Finished matches, wins and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Finished matches.
    pub played: i64,
    /// Won.
    pub won: i64,
    /// Drawn.
    pub drawn: i64,
}

impl Tally {
    /// Lost.
    pub fn lost(&self) -> i64 {
        self.played - self.won - self.drawn
    }
    /// Points: a win 3, a draw 1.
    pub fn points(&self) -> i64 {
        3 * self.won + self.drawn
    }
    /// "67 %", or "–" before the first match.
    pub fn rate_text(&self) -> String {
        if self.played == 0 {
            return "–".into();
        }
        // Integer arithmetic, rounded half up: no float formatting differences.
        format!("{} %", (self.won * 200 + self.played) / (2 * self.played))
    }
}

/// One line of a season's standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    /// 1 for the leader; equal points and wins share a rank.
    pub rank: usize,
    /// The member.
    pub member: i64,
    /// The member's name.
    pub name: String,
    /// The member's matches.
    pub tally: Tally,
}

/// A season: a named range of days, or all time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Season {
    /// Its id, 0 for all time.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// First day, `YYYY-MM-DD`.
    pub from: String,
    /// Last day, `YYYY-MM-DD`.
    pub to: String,
}

impl Season {
    /// All matches ever.
    pub fn all_time() -> Season {
        Season {
            id: 0,
            name: String::new(),
            from: "0001-01-01".into(),
            to: "9999-12-31".into(),
        }
    }
}

/// The seasons, newest first.
pub async fn seasons(client: &impl GenericClient) -> Result<Vec<Season>, ClubError> {
    let rows = client
        .query(
            "SELECT id, name, starts_on::text, ends_on::text FROM seasons ORDER BY starts_on DESC, id DESC",
            &[],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| Season {
            id: r.get(0),
            name: r.get(1),
            from: r.get(2),
            to: r.get(3),
        })
        .collect())
}

fn tally(r: &tokio_postgres::Row, at: usize) -> Tally {
    Tally {
        played: r.get(at),
        won: r.get(at + 1),
        drawn: r.get(at + 2),
    }
}

/// The standings of `game` in season `season` (0: all time): points (win 3, draw 1), then
/// wins, then fewer matches, then name.
pub async fn standings(
    client: &impl GenericClient,
    game: &str,
    season: i64,
) -> Result<Vec<StandingRow>, ClubError> {
    let rows = client
        .query(
            "SELECT s.member_id, mb.name, sum(s.played)::bigint, sum(s.won)::bigint, sum(s.drawn)::bigint
             FROM season_stats s JOIN members mb ON mb.id = s.member_id
             WHERE s.season_id = $1 AND s.game = $2
             GROUP BY s.member_id, mb.name, mb.name_key
             HAVING sum(s.played) > 0
             ORDER BY 3 * sum(s.won) + sum(s.drawn) DESC, sum(s.won) DESC, sum(s.played), mb.name_key, s.member_id",
            &[&season, &game],
        )
        .await?;
    let mut out: Vec<StandingRow> = rows
        .iter()
        .map(|r| StandingRow {
            rank: 0,
            member: r.get(0),
            name: r.get(1),
            tally: tally(r, 2),
        })
        .collect();
    let mut rank = 0;
    for i in 0..out.len() {
        let tied = i > 0
            && out[i - 1].tally.points() == out[i].tally.points()
            && out[i - 1].tally.won == out[i].tally.won;
        if !tied {
            rank = i + 1;
        }
        out[i].rank = rank;
    }
    Ok(out)
}

/// Win rates per deck of `game` in season `season` (0: all time), by deck name.
pub async fn decks(
    client: &impl GenericClient,
    game: &str,
    season: i64,
) -> Result<Vec<(String, Tally)>, ClubError> {
    let rows = client
        .query(
            "SELECT deck_name, sum(played)::bigint, sum(won)::bigint, sum(drawn)::bigint
             FROM season_stats
             WHERE season_id = $1 AND game = $2
             GROUP BY deck_name HAVING sum(played) > 0 ORDER BY deck_name",
            &[&season, &game],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), tally(r, 1))).collect())
}

/// Finished matches per game over `from..=to`: (game, matches, draws), by game; from the
/// per-day totals the push transaction keeps (`game_days`), so it reads a row per day, game
/// and kiosk, never the matches.
pub async fn games(
    client: &impl GenericClient,
    from: &str,
    to: &str,
) -> Result<Vec<(String, i64, i64)>, ClubError> {
    let rows = client
        .query(
            "SELECT game, sum(finished)::bigint, sum(drawn)::bigint
             FROM game_days
             WHERE played_on BETWEEN $1::text::date AND $2::text::date
             GROUP BY game HAVING sum(finished) > 0 ORDER BY game",
            &[&from, &to],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect())
}

/// One player of a match, as the pages show them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The seat, from 0.
    pub seat: i32,
    /// The member.
    pub member: i64,
    /// The name entered at the kiosk.
    pub name: String,
    /// The deck.
    pub deck: String,
}

/// A match in a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    /// The server's match id.
    pub id: i64,
    /// The kiosk it was played at.
    pub kiosk: String,
    /// The game.
    pub game: String,
    /// The day, `YYYY-MM-DD`.
    pub day: String,
    /// Its entries.
    pub entries: i32,
    /// `win`, `draw` or none while open.
    pub result: Option<String>,
    /// The winner's seat.
    pub winner: Option<i32>,
    /// Why it ended.
    pub reason: Option<String>,
    /// Turn now.
    pub turn: Option<i32>,
    /// Phase now.
    pub phase: Option<String>,
    /// The tracked numbers now (JSON of `cards::core::Tracker`s).
    pub trackers_json: Option<String>,
    /// Last change, `HH:MM` in the club's time zone.
    pub updated: String,
    /// The players, by seat.
    pub seats: Vec<Seat>,
}

/// The columns of a [`MatchRow`], as a literal so statements are put together at compile time.
macro_rules! match_row_sql {
    () => {
        "SELECT m.id, k.name, m.game, m.played_on::text, m.entry_count, m.result, m.winner_seat,
        m.reason, m.turn, m.phase, m.trackers_json,
        to_char(m.updated_at AT TIME ZONE (SELECT value FROM settings WHERE key = 'timezone'), 'HH24:MI')
     FROM matches m JOIN kiosks k ON k.id = m.kiosk_id "
    };
}

fn match_row(r: &tokio_postgres::Row) -> MatchRow {
    MatchRow {
        id: r.get(0),
        kiosk: r.get(1),
        game: r.get(2),
        day: r.get(3),
        entries: r.get(4),
        result: r.get(5),
        winner: r.get(6),
        reason: r.get(7),
        turn: r.get(8),
        phase: r.get(9),
        trackers_json: r.get(10),
        updated: r.get(11),
        seats: Vec::new(),
    }
}

async fn with_seats(
    client: &impl GenericClient,
    mut rows: Vec<MatchRow>,
) -> Result<Vec<MatchRow>, ClubError> {
    let ids: Vec<i64> = rows.iter().map(|m| m.id).collect();
    let seats = client
        .query(
            "SELECT match_id, seat, member_id, name, deck_name FROM match_players
             WHERE match_id = ANY($1) ORDER BY match_id, seat",
            &[&ids],
        )
        .await?;
    for s in &seats {
        let id: i64 = s.get(0);
        if let Some(m) = rows.iter_mut().find(|m| m.id == id) {
            m.seats.push(Seat {
                seat: s.get(1),
                member: s.get(2),
                name: s.get(3),
                deck: s.get(4),
            });
        }
    }
    Ok(rows)
}

/// Today in the club's time zone (`YYYY-MM-DD`), and each kiosk with its latest match of
/// today (or none), by kiosk name.
pub async fn tonight(
    client: &impl GenericClient,
) -> Result<(String, Vec<(String, Option<MatchRow>)>), ClubError> {
    let today: String = client
        .query_one(
            "SELECT (now() AT TIME ZONE (SELECT value FROM settings WHERE key = 'timezone'))::date::text",
            &[],
        )
        .await?
        .get(0);
    let kiosks: Vec<String> = client
        .query("SELECT name FROM kiosks ORDER BY name", &[])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let sql = concat!(
        match_row_sql!(),
        "WHERE m.played_on = $1::text::date AND m.id IN (
             SELECT DISTINCT ON (kiosk_id) id FROM matches WHERE played_on = $1::text::date
             ORDER BY kiosk_id, updated_at DESC, id DESC)"
    );
    let rows = client.query(sql, &[&today]).await?;
    let latest = with_seats(client, rows.iter().map(match_row).collect()).await?;
    let tables = kiosks
        .into_iter()
        .map(|k| {
            let m = latest.iter().find(|m| m.kiosk == k).cloned();
            (k, m)
        })
        .collect();
    Ok((today, tables))
}

/// A member with their record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// The member id.
    pub id: i64,
    /// The name.
    pub name: String,
    /// The member number, if any.
    pub number: Option<String>,
    /// Per game: all their finished matches.
    pub games: Vec<(String, Tally)>,
    /// Their latest matches (at most 50), newest first.
    pub recent: Vec<MatchRow>,
}

/// A member's record, or `None` for no such member.
pub async fn player(client: &impl GenericClient, id: i64) -> Result<Option<PlayerView>, ClubError> {
    let Some(m) = client
        .query_opt("SELECT name, number FROM members WHERE id = $1", &[&id])
        .await?
    else {
        return Ok(None);
    };
    let games = client
        .query(
            "SELECT game, sum(played)::bigint, sum(won)::bigint, sum(drawn)::bigint FROM season_stats
             WHERE member_id = $1 AND season_id = 0 GROUP BY game ORDER BY game",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), tally(r, 1)))
        .collect();
    let sql = concat!(
        match_row_sql!(),
        "WHERE m.id IN (SELECT match_id FROM match_players WHERE member_id = $1
                        ORDER BY match_id DESC LIMIT 50)
         ORDER BY m.created_ms DESC, m.id DESC"
    );
    let rows = client.query(sql, &[&id]).await?;
    let recent = with_seats(client, rows.iter().map(match_row).collect()).await?;
    Ok(Some(PlayerView {
        id,
        name: m.get(0),
        number: m.get(1),
        games,
        recent,
    }))
}

/// A stored match with what replaying it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLog {
    /// The match as in lists.
    pub row: MatchRow,
    /// The header as pushed.
    pub header_json: String,
    /// The catalogue version's text.
    pub catalogue: String,
    /// Its hash.
    pub catalogue_sha256: String,
    /// Every entry's input, in order.
    pub inputs: Vec<String>,
}

/// A stored match's log, or `None` for no such match.
pub async fn match_log(
    client: &impl GenericClient,
    id: i64,
) -> Result<Option<MatchLog>, ClubError> {
    let sql = concat!(match_row_sql!(), "WHERE m.id = $1");
    let Some(r) = client.query_opt(sql, &[&id]).await? else {
        return Ok(None);
    };
    let row = with_seats(client, vec![match_row(&r)]).await?;
    let Some(row) = row.into_iter().next() else {
        return Ok(None);
    };
    let h = client
        .query_one(
            "SELECT m.header_json, c.body, c.sha256 FROM matches m
             JOIN catalogues c ON c.sha256 = m.catalogue_sha256 WHERE m.id = $1",
            &[&id],
        )
        .await?;
    let inputs = client
        .query(
            "SELECT input_json FROM entries WHERE match_id = $1 ORDER BY seq",
            &[&id],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    Ok(Some(MatchLog {
        row,
        header_json: h.get(0),
        catalogue: h.get(1),
        catalogue_sha256: h.get(2),
        inputs,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_round_half_up_without_floats() {
        let t = |played, won, drawn| Tally { played, won, drawn };
        assert_eq!(t(0, 0, 0).rate_text(), "–");
        assert_eq!(t(3, 2, 0).rate_text(), "67 %");
        assert_eq!(t(8, 1, 0).rate_text(), "13 %"); // 12.5 → 13
        assert_eq!(t(4, 1, 1).points(), 4);
        assert_eq!(t(4, 1, 1).lost(), 2);
    }
}
