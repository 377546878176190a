//! Swiss rounds for a club night: standings with tie-breaks, and the next round's pairings.
//!
//! Pure functions of the players and the rounds played so far, so they are tested alone and
//! the server only reads and writes rows.
//!
//! # Standings and tie-breaks (the usual ones, as at card-game tournaments)
//!
//! 1. **Match points**: a win 3, a draw 1, a loss 0, a bye 3.
//! 2. **OMW%** (opponents' match-win percentage): the mean over a player's opponents (byes
//!    are no opponent) of each opponent's match-win percentage, which is their match points
//!    divided by 3 × their rounds played, but at least 1/3.
//! 3. **OOMW%**: the mean of the player's opponents' OMW%.
//! 4. Then registration order (the lower member number on the server).
//!
//! A pairing whose result is not in yet counts for nothing (not as a round played).
//!
//! # Pairing
//!
//! Round 1 is a fixed shuffle of the players (by a hash of the event and the member, so it is
//! the same every time it is computed). Later rounds order the players by the standings above.
//! With an odd number of players, the lowest-ranked player who has had no bye gets it. Then
//! each unpaired player, from the top, meets the next-highest player they have not met yet,
//! backtracking when a later player would be left without an opponent. If no pairing without a
//! rematch exists (or the search passes [`SEARCH_BUDGET`] steps), players are paired in
//! standings order regardless of rematches.

use std::collections::{BTreeMap, BTreeSet};

/// At most this many steps are spent looking for a pairing without rematches.
pub const SEARCH_BUDGET: usize = 200_000;

/// A player, by member id.
pub type Player = i64;

/// The result of one pairing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result2 {
    /// The first player won.
    A,
    /// The second player won.
    B,
    /// A draw.
    Draw,
}

/// One pairing of a past or current round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The first player.
    pub a: Player,
    /// The second player, `None` for a bye.
    pub b: Option<Player>,
    /// The result, `None` while it is being played.
    pub result: Option<Result2>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the leader; tied players (equal on every tie-break) share a rank.
    pub rank: usize,
    /// The player.
    pub player: Player,
    /// Match points.
    pub points: u32,
    /// Wins (byes included).
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Opponents' match-win percentage, 0.0–1.0.
    pub omw: f64,
    /// Opponents' opponents' match-win percentage, 0.0–1.0.
    pub oomw: f64,
}

#[derive(Default, Clone)]
struct Record {
    points: u32,
    played: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    byes: u32,
    opponents: Vec<Player>,
}

fn records(players: &[Player], games: &[Game]) -> BTreeMap<Player, Record> {
    let mut map: BTreeMap<Player, Record> =
        players.iter().map(|p| (*p, Record::default())).collect();
    for g in games {
        let Some(result) = g.result.or(g.b.is_none().then_some(Result2::A)) else {
            continue;
        };
        match g.b {
            None => {
                if let Some(r) = map.get_mut(&g.a) {
                    r.points += 3;
                    r.played += 1;
                    r.wins += 1;
                    r.byes += 1;
                }
            }
            Some(b) => {
                let (pa, pb) = match result {
                    Result2::A => (3, 0),
                    Result2::B => (0, 3),
                    Result2::Draw => (1, 1),
                };
                for (me, other, pts) in [(g.a, b, pa), (b, g.a, pb)] {
                    if let Some(r) = map.get_mut(&me) {
                        r.points += pts;
                        r.played += 1;
                        match pts {
                            3 => r.wins += 1,
                            1 => r.draws += 1,
                            _ => r.losses += 1,
                        }
                        r.opponents.push(other);
                    }
                }
            }
        }
    }
    map
}

fn mwp(r: &Record) -> f64 {
    if r.played == 0 {
        return 1.0 / 3.0;
    }
    (f64::from(r.points) / (3.0 * f64::from(r.played))).max(1.0 / 3.0)
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / f64::from(n) }
}

/// The standings of `players` after `games`, best first (see the module documentation).
pub fn standings(players: &[Player], games: &[Game]) -> Vec<Standing> {
    let recs = records(players, games);
    let omw: BTreeMap<Player, f64> = recs
        .iter()
        .map(|(p, r)| {
            (
                *p,
                mean(r.opponents.iter().filter_map(|o| recs.get(o)).map(mwp)),
            )
        })
        .collect();
    let mut rows: Vec<Standing> = recs
        .iter()
        .map(|(p, r)| Standing {
            rank: 0,
            player: *p,
            points: r.points,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            byes: r.byes,
            omw: omw.get(p).copied().unwrap_or(0.0),
            oomw: mean(r.opponents.iter().filter_map(|o| omw.get(o).copied())),
        })
        .collect();
    rows.sort_by(|x, y| {
        y.points
            .cmp(&x.points)
            .then(y.omw.total_cmp(&x.omw))
            .then(y.oomw.total_cmp(&x.oomw))
            .then(x.player.cmp(&y.player))
    });
    let mut rank = 0;
    for i in 0..rows.len() {
        let tied = i > 0 && {
            let (a, b) = (&rows[i - 1], &rows[i]);
            a.points == b.points && (a.omw - b.omw).abs() < 1e-12 && (a.oomw - b.oomw).abs() < 1e-12
        };
        if !tied {
            rank = i + 1;
        }
        rows[i].rank = rank;
    }
    rows
}

/// A 64-bit mix (splitmix64) for the round-1 shuffle.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The next round's pairings: `(a, Some(b))` in table order (best-placed first), and a bye
/// `(p, None)` last when the number of players is odd.
pub fn pair(event: i64, players: &[Player], games: &[Game]) -> Vec<(Player, Option<Player>)> {
    let mut order: Vec<Player> = if games.is_empty() {
        let mut shuffled: Vec<Player> = players.to_vec();
        shuffled.sort_by_key(|p| (mix(event.cast_unsigned() ^ mix(p.cast_unsigned())), *p));
        shuffled
    } else {
        standings(players, games)
            .into_iter()
            .map(|s| s.player)
            .collect()
    };
    let met: BTreeSet<(Player, Player)> = games
        .iter()
        .filter_map(|g| g.b.map(|b| (g.a.min(b), g.a.max(b))))
        .collect();
    let had_bye: BTreeSet<Player> = games
        .iter()
        .filter(|g| g.b.is_none())
        .map(|g| g.a)
        .collect();
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pick = order
            .iter()
            .rposition(|p| !had_bye.contains(p))
            .unwrap_or(order.len() - 1);
        bye = Some(order.remove(pick));
    }
    let mut pairs = Vec::with_capacity(order.len() / 2 + 1);
    let mut budget = SEARCH_BUDGET;
    let mut used = vec![false; order.len()];
    let mut found = Vec::new();
    if search(&order, &met, &mut used, &mut found, &mut budget) {
        pairs.extend(found.into_iter().map(|(a, b)| (order[a], Some(order[b]))));
    } else {
        pairs.extend(order.chunks(2).filter_map(|c| match c {
            [a, b] => Some((*a, Some(*b))),
            _ => None,
        }));
    }
    if let Some(p) = bye {
        pairs.push((p, None));
    }
    pairs
}

fn search(
    order: &[Player],
    met: &BTreeSet<(Player, Player)>,
    used: &mut [bool],
    out: &mut Vec<(usize, usize)>,
    budget: &mut usize,
) -> bool {
    let Some(first) = used.iter().position(|u| !u) else {
        return true;
    };
    used[first] = true;
    for other in first + 1..order.len() {
        if used[other] {
            continue;
        }
        if *budget == 0 {
            used[first] = false;
            return false;
        }
        *budget -= 1;
        let (a, b) = (order[first], order[other]);
        if met.contains(&(a.min(b), a.max(b))) {
            continue;
        }
        used[other] = true;
        out.push((first, other));
        if search(order, met, used, out, budget) {
            return true;
        }
        out.pop();
        used[other] = false;
    }
    used[first] = false;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(a: Player, b: Player, r: Result2) -> Game {
        Game {
            a,
            b: Some(b),
            result: Some(r),
        }
    }

    #[test]
    fn points_then_opponents_win_rate_decide() {
        // Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2.
        let games = [
            g(1, 2, Result2::A),
            g(3, 4, Result2::A),
            g(1, 3, Result2::A),
            g(4, 2, Result2::A),
        ];
        let s = standings(&[1, 2, 3, 4], &games);
        let order: Vec<Player> = s.iter().map(|x| x.player).collect();
        // 1 has 6 points. 3 and 4 have 3 each: 3 met 4 (1-1 → 50 %) and 1 (100 %) → OMW 75 %;
        // 4 met 3 (50 %) and 2 (0 → floored to 33 %) → OMW 41.7 %. 2 has 0.
        assert_eq!(order, [1, 3, 4, 2]);
        assert_eq!(s[0].points, 6);
        assert!((s[1].omw - 0.75).abs() < 1e-9, "{}", s[1].omw);
        assert!((s[2].omw - (0.5 + 1.0 / 3.0) / 2.0).abs() < 1e-9);
        assert_eq!(s.iter().map(|x| x.rank).collect::<Vec<_>>(), [1, 2, 3, 4]);
    }

    #[test]
    fn a_bye_is_three_points_and_no_opponent() {
        let games = [
            Game {
                a: 5,
                b: None,
                result: None,
            },
            g(1, 2, Result2::Draw),
        ];
        let s = standings(&[1, 2, 5], &games);
        assert_eq!(s[0].player, 5);
        assert_eq!((s[0].points, s[0].byes, s[0].omw), (3, 1, 0.0));
        assert_eq!((s[1].points, s[2].points), (1, 1));
        // 1 and 2 are equal on every tie-break: they share the rank.
        assert_eq!((s[1].rank, s[2].rank), (2, 2));
    }

    #[test]
    fn results_not_in_count_for_nothing() {
        let games = [Game {
            a: 1,
            b: Some(2),
            result: None,
        }];
        let s = standings(&[1, 2], &games);
        assert!(s.iter().all(|x| x.points == 0 && x.wins + x.losses == 0));
    }

    #[test]
    fn round_one_pairs_everyone_once_and_gives_one_bye() {
        let players: Vec<Player> = (1..=7).collect();
        let p = pair(9, &players, &[]);
        assert_eq!(p.len(), 4);
        assert_eq!(p.iter().filter(|(_, b)| b.is_none()).count(), 1);
        let mut seen: Vec<Player> = p
            .iter()
            .flat_map(|(a, b)| [Some(*a), *b])
            .flatten()
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, players);
        // The same event pairs the same way every time.
        assert_eq!(pair(9, &players, &[]), p);
    }

    #[test]
    fn later_rounds_avoid_rematches_and_second_byes() {
        let players: Vec<Player> = (1..=5).collect();
        let mut games = Vec::new();
        for round in 0..4 {
            let pairs = pair(3, &players, &games);
            for (a, b) in &pairs {
                if let Some(b) = b {
                    let met = games.iter().any(|x: &Game| {
                        x.b.is_some_and(|y| (x.a, y) == (*a, *b) || (x.a, y) == (*b, *a))
                    });
                    assert!(!met, "round {round}: {a} and {b} met already");
                }
            }
            let byes: Vec<Player> = pairs
                .iter()
                .filter(|(_, b)| b.is_none())
                .map(|(a, _)| *a)
                .collect();
            assert_eq!(byes.len(), 1);
            assert!(
                !games.iter().any(|x| x.b.is_none() && x.a == byes[0]),
                "round {round}: {} had a bye already",
                byes[0]
            );
            games.extend(pairs.iter().map(|(a, b)| Game {
                a: *a,
                b: *b,
                result: Some(if a < &b.unwrap_or(0) {
                    Result2::A
                } else {
                    Result2::B
                }),
            }));
        }
    }

    #[test]
    fn leaders_meet_leaders() {
        // After round 1 (1, 3 won), the winners meet and the losers meet.
        let games = [g(1, 2, Result2::A), g(3, 4, Result2::A)];
        let p = pair(1, &[1, 2, 3, 4], &games);
        assert_eq!(p.len(), 2);
        let top = p[0];
        let winners = [1, 3];
        assert!(
            winners.contains(&top.0) && top.1.is_some_and(|b| winners.contains(&b)),
            "{p:?}"
        );
    }

    #[test]
    fn when_every_opponent_was_met_a_rematch_is_paired_rather_than_none() {
        let games = [g(1, 2, Result2::A)];
        assert_eq!(pair(1, &[1, 2], &games), [(1, Some(2))]);
    }
}
