//! Standings of a season of 100,000 matches (300 members, 6 decks, a year of club nights):
//! the SQL query and the whole `/standings` page, per request: median, p99, max.
//!
//! `cargo bench --workspace --bench club_standings [-- --matches 100000]`

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{PgCluster, TestServer, block_on, init};
use std::time::{Duration, Instant};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(what: &str, mut t: Vec<Duration>) -> Duration {
    t.sort();
    let p99 = percentile(&t, 0.99);
    println!(
        "{what}: {} runs, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.len(),
        percentile(&t, 0.5).as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        t.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    p99
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let matches: i32 = args
        .iter()
        .position(|a| a == "--matches")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let pg = PgCluster::start().unwrap();
    let db = pg.database("bench_standings").unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let pool = club::db::pool(&db, 4).unwrap();
    let t = Instant::now();
    let season = block_on(async {
        let c = pool.get().await.unwrap();
        c.batch_execute(
            "INSERT INTO kiosks (name, token_sha256)
                 SELECT 'table-' || i, md5(i::text) || md5((i + 1000)::text) FROM generate_series(1, 10) i;
             INSERT INTO catalogues (sha256, game, set_id, body) VALUES (repeat('a', 64), 'jaken', 'jaken-demo', '');
             INSERT INTO members (name, name_key)
                 SELECT 'Player ' || i, 'player ' || i FROM generate_series(1, 300) i;",
        )
        .await
        .unwrap();
        c.execute(
            "INSERT INTO matches (kiosk_id, kiosk_match, game, catalogue_sha256, header_json, created_ms,
                                  played_on, entry_count, result, winner_seat, reason)
             SELECT 1 + i % 10, i, 'jaken', repeat('a', 64), '{}', 0, date '2026-01-01' + i % 365, 80,
                    CASE WHEN i % 17 = 0 THEN 'draw' ELSE 'win' END,
                    CASE WHEN i % 17 = 0 THEN NULL ELSE (i * 13 % 7) % 2 END, 'bench'
             FROM generate_series(1, $1) i",
            &[&matches],
        )
        .await
        .unwrap();
        c.batch_execute(
            "INSERT INTO match_players (match_id, seat, kiosk_id, member_id, name, deck_name)
             SELECT m.id, s, m.kiosk_id, 1 + (m.id * 7 + s * 131) % 300,
                    'Player ' || (1 + (m.id * 7 + s * 131) % 300), 'jaken-demo/deck-' || (m.id + s) % 6
             FROM matches m, generate_series(0, 1) s;
             ANALYZE;",
        )
        .await
        .unwrap();
        drop(c);
        club::admin::add_season(&pool, "2026", "2026-01-01", "2026-12-31")
            .await
            .unwrap();
        let c = pool.get().await.unwrap();
        c.batch_execute("VACUUM ANALYZE season_stats")
            .await
            .unwrap();
        let id: i64 = c
            .query_one("SELECT id FROM seasons", &[])
            .await
            .unwrap()
            .get(0);
        id
    });
    println!(
        "club_standings: {matches} matches in one season, made in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let (season_q, all_q, rows) = block_on(async {
        let c = pool.get().await.unwrap();
        let mut season_t = Vec::new();
        let mut all_t = Vec::new();
        let mut rows = 0;
        for i in 0..400 {
            let t = Instant::now();
            let s = club::stats::standings(&c, "jaken", if i % 2 == 0 { season } else { 0 })
                .await
                .unwrap();
            let d = t.elapsed();
            rows = s.len();
            if i % 2 == 0 {
                season_t.push(d)
            } else {
                all_t.push(d)
            }
            let played: i64 = s.iter().map(|r| r.tally.played).sum();
            assert_eq!(
                played,
                2 * i64::from(matches),
                "every seat of every match is counted"
            );
        }
        (season_t, all_t, rows)
    });
    println!("{rows} players in the standings");
    let p99 = report("standings query, the season", season_q);
    report("standings query, all time", all_q);

    let server = TestServer::start(&db).unwrap();
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let url = format!(
        "{}/standings?game=jaken&season={season}&lang=en",
        server.url
    );
    let mut page = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let body = agent
            .get(&url)
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        page.push(t.elapsed());
        assert!(body.contains("Player "));
    }
    report("whole /standings page over HTTP", page);
    server.stop();
    assert!(
        p99 <= Duration::from_millis(50),
        "the standings query's p99 is over 50 ms"
    );
}
