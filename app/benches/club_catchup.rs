//! A kiosk with 1,000 unsynced matches (the whole Jaken demo match each, 83 entries) catching
//! up with a club server on localhost (over a throwaway PostgreSQL) through its real sync
//! thread: the time until every match is on the server, and the rate.
//!
//! `cargo bench --workspace --bench club_catchup [-- --matches 1000]`

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{DemoLog, PgCluster, TestServer, add_kiosk, block_on, fast_tempdir, init};
use std::time::{Duration, Instant};
use tableside::config::Club;
use tableside::store::Store;
use tableside::sync::{SyncOptions, SyncService};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let matches: usize = args
        .iter()
        .position(|a| a == "--matches")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let pg = PgCluster::start().unwrap();
    let db = pg.database("bench_catchup").unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let token = add_kiosk(&db, "table-1").unwrap();
    let server = TestServer::start(&db).unwrap();

    let demo = DemoLog::jaken().unwrap();
    let dir = fast_tempdir().unwrap();
    let path = dir.path().join("tableside.sqlite3");
    let t = Instant::now();
    {
        let mut store = Store::open(&path).unwrap();
        let names = ["Aki", "Ben", "Cho", "Dan", "Eri", "Fumi", "Gen", "Hana"];
        for m in 0..matches {
            let header = demo.header_json(&[names[m % 8], names[(m + 3) % 8]]);
            let id = store
                .create_match("jaken", &header, 1_767_225_600_000)
                .unwrap();
            for (seq, input) in demo.inputs.iter().enumerate() {
                store
                    .append(id, seq as u64, input, 1_767_225_600_000 + seq as i64)
                    .unwrap();
            }
        }
    }
    println!(
        "club_catchup: a kiosk store of {matches} matches x {} entries, made in {:.1} s",
        demo.inputs.len(),
        t.elapsed().as_secs_f64()
    );

    let club = Club {
        url: server.url.clone(),
        token,
    };
    let t = Instant::now();
    let sync = SyncService::start(&club, path, SyncOptions::default()).unwrap();
    let done = sync
        .wait_for(Duration::from_secs(3600), |s| {
            s.waiting == 0 && s.synced == matches
        })
        .unwrap_or_else(|s| panic!("not caught up: {s:#?}"));
    let took = t.elapsed();
    drop(sync);
    let stored: i64 = block_on(async {
        let (c, conn) =
            club::testing::tokio_postgres::connect(&db, club::testing::tokio_postgres::NoTls)
                .await
                .unwrap();
        tokio::spawn(conn);
        c.query_one(
            "SELECT coalesce(sum(entry_count), 0)::bigint FROM matches WHERE result IS NOT NULL",
            &[],
        )
        .await
        .unwrap()
        .get(0)
    });
    let entries = matches * demo.inputs.len();
    assert_eq!(stored as usize, entries);
    assert!(done.refused.is_empty());
    println!(
        "caught up in {:.1} s: {:.0} matches/s, {:.0} entries/s (server in the same process, debug: {})",
        took.as_secs_f64(),
        matches as f64 / took.as_secs_f64(),
        entries as f64 / took.as_secs_f64(),
        cfg!(debug_assertions)
    );
    server.stop();
}
