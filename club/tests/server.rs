//! The club server against a real PostgreSQL (a throwaway cluster this binary starts): pushes
//! verified by replay, idempotent and refused when tampered with; row-level checks; club nights;
//! the pages' escaping.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{DemoLog, PgCluster, TestServer, add_kiosk, block_on, init};
use club_protocol::{
    Pairings, Progress, PushRequest, PushResponse, Refusal, RefusalCode, catalogue_path,
    catalogue_sha256, push_path,
};
use std::sync::OnceLock;

fn cluster() -> &'static PgCluster {
    static C: OnceLock<PgCluster> = OnceLock::new();
    C.get_or_init(|| PgCluster::start().expect("a PostgreSQL cluster (apt-get install postgresql)"))
}

struct Club {
    server: TestServer,
    db: String,
    a: String,
    b: String,
    agent: ureq::Agent,
}

fn club(name: &str) -> Club {
    let db = cluster().database(name).unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let a = add_kiosk(&db, "table-1").unwrap();
    let b = add_kiosk(&db, "table-2").unwrap();
    let server = TestServer::start(&db).unwrap();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    Club {
        server,
        db,
        a,
        b,
        agent,
    }
}

impl Club {
    fn send(&self, method: &str, path: &str, token: Option<&str>, body: &[u8]) -> (u16, String) {
        let url = format!("{}{path}", self.server.url);
        let resp = match method {
            "PUT" => {
                let mut r = self.agent.put(&url);
                if let Some(t) = token {
                    r = r.header("Authorization", &format!("Bearer {t}"));
                }
                r.send(body)
            }
            _ => {
                let mut r = self.agent.get(&url);
                if let Some(t) = token {
                    r = r.header("Authorization", &format!("Bearer {t}"));
                }
                r.call()
            }
        };
        let mut resp = resp.unwrap();
        let status = resp.status().as_u16();
        (status, resp.body_mut().read_to_string().unwrap_or_default())
    }

    fn push(
        &self,
        token: &str,
        kiosk: &str,
        id: i64,
        req: &PushRequest,
    ) -> Result<PushResponse, Refusal> {
        let (status, body) = self.send(
            "PUT",
            &push_path(kiosk, id),
            Some(token),
            serde_json::to_string(req).unwrap().as_bytes(),
        );
        if status == 200 {
            Ok(serde_json::from_str(&body).unwrap())
        } else {
            let r: Refusal =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("{status} {body}: {e}"));
            assert_eq!(r.code.status(), status, "{body}");
            assert!(!r.reason_en.is_empty() && !r.reason_ja.is_empty());
            Err(r)
        }
    }

    fn upload(&self, token: &str, text: &str) {
        let (status, body) = self.send(
            "PUT",
            &catalogue_path(&catalogue_sha256(text)),
            Some(token),
            text.as_bytes(),
        );
        assert_eq!(status, 204, "{body}");
    }

    fn page(&self, path: &str) -> (u16, String) {
        self.send("GET", path, None, b"")
    }

    /// Everything a push may change, as text: matches, entries, players, statistics.
    fn snapshot(&self) -> String {
        sql(&self.db, |c| async move {
            let mut out = String::new();
            for q in [
                "SELECT string_agg(concat_ws('|', id, kiosk_id, kiosk_match, entry_count, result, winner_seat), ';' ORDER BY id) FROM matches",
                "SELECT string_agg(concat_ws('|', match_id, seq, md5(input_json)), ';' ORDER BY match_id, seq) FROM entries",
                "SELECT string_agg(concat_ws('|', match_id, seat, member_id), ';' ORDER BY match_id, seat) FROM match_players",
                "SELECT string_agg(concat_ws('|', season_id, game, member_id, deck_name, played, won, drawn), ';' ORDER BY season_id, game, member_id, deck_name) FROM season_stats",
                "SELECT string_agg(concat_ws('|', played_on, game, kiosk_id, finished, drawn), ';' ORDER BY played_on, game, kiosk_id) FROM game_days",
            ] {
                let v: Option<String> = c.query_one(q, &[]).await.unwrap().get(0);
                out.push_str(&v.unwrap_or_default());
                out.push('\n');
            }
            out
        })
    }
}

/// Runs `f` with a connection to `db` (as the ordinary role `club`).
fn sql<T, F: std::future::Future<Output = T>>(
    db: &str,
    f: impl FnOnce(tokio_postgres::Client) -> F,
) -> T {
    let db = db.to_owned();
    block_on(async move {
        let (client, conn) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        f(client).await
    })
}

#[test]
fn a_pushed_match_is_verified_stored_once_and_counted_by_the_server_itself() {
    let c = club("push_once");
    let demo = DemoLog::jaken().unwrap();
    let n = demo.inputs.len();
    // Given the server lacks the catalogue, the first push says so and stores nothing.
    let first = demo.push(&["Aki", "Ben"], 0..40);
    let r = c.push(&c.a, "table-1", 7, &first).unwrap_err();
    assert_eq!(r.code, RefusalCode::CatalogueMissing);
    c.upload(&c.a, demo.catalogue);
    // When the log arrives in two pushes,
    assert_eq!(
        c.push(&c.a, "table-1", 7, &first).unwrap(),
        PushResponse {
            stored: 40,
            finished: false
        }
    );
    let rest = demo.push(&["Aki", "Ben"], 30..n); // overlapping: 30..40 are compared and skipped
    assert_eq!(
        c.push(&c.a, "table-1", 7, &rest).unwrap(),
        PushResponse {
            stored: n as u64,
            finished: true
        }
    );
    // then pushing the same again changes nothing (idempotent by kiosk, match, seq),
    let before = c.snapshot();
    let again = demo.push(&["Aki", "Ben"], 0..n);
    assert_eq!(c.push(&c.a, "table-1", 7, &again).unwrap().stored, n as u64);
    assert_eq!(c.snapshot(), before);
    // the kiosk's progress says what the server holds,
    let (status, body) = c.send("GET", "/api/v1/progress", Some(&c.a), b"");
    assert_eq!(status, 200);
    let p: Progress = serde_json::from_str(&body).unwrap();
    assert_eq!(
        p,
        Progress {
            kiosk: "table-1".into(),
            matches: vec![(7, n as u64)]
        }
    );
    // and the server's own replay decided the result: Ben (seat 1) won.
    let (result, winner): (String, i32) = sql(&c.db, |c| async move {
        let r = c
            .query_one("SELECT result, winner_seat FROM matches", &[])
            .await
            .unwrap();
        (r.get(0), r.get(1))
    });
    assert_eq!((result.as_str(), winner), ("win", 1));
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    let ben = page.find(">Ben</a>").expect(&page);
    let aki = page.find(">Aki</a>").expect(&page);
    assert!(ben < aki, "the winner is ranked first");
    // A second kiosk's match of the same players counts for the same members.
    c.push(&c.b, "table-2", 7, &demo.push(&["aki ", "BEN"], 0..n))
        .unwrap();
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    assert!(page.contains("<td class=\"n\">2</td><td class=\"n\">2</td><td class=\"n\">0</td><td class=\"n\">0</td><td class=\"n\">100 %</td>"), "{page}");
    // The matches per game count both finished matches, none drawn.
    assert!(
        page.contains("<td>Jaken ジャケン</td><td class=\"n\">2</td><td class=\"n\">0</td>"),
        "{page}"
    );
}

#[test]
fn an_undo_after_the_end_takes_the_result_back_out_of_every_count() {
    let c = club("undo_after_end");
    let demo = DemoLog::jaken().unwrap();
    let n = demo.inputs.len();
    c.upload(&c.a, demo.catalogue);
    c.push(&c.a, "table-1", 1, &demo.push(&["Aki", "Ben"], 0..n))
        .unwrap();
    let games_row = "<td>Jaken ジャケン</td><td class=\"n\">1</td><td class=\"n\">0</td>";
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    assert!(page.contains(games_row), "{page}");
    // When the table takes the last move back, the match is open again: counted nowhere.
    let mut undo = demo.push(&["Aki", "Ben"], 0..0);
    undo.entries.push(club_protocol::PushEntry {
        seq: n as u64,
        at_ms: 1_767_225_600_000 + n as i64 * 1000,
        input_json: r#"{"input":"undo"}"#.into(),
    });
    let r = c.push(&c.a, "table-1", 1, &undo).unwrap();
    assert!(!r.finished);
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    assert!(!page.contains("id=\"standings\""), "{page}");
    assert!(!page.contains("<td>Jaken ジャケン</td>"), "{page}");
    // and when it is played to its end again, it counts once.
    let mut again = undo.clone();
    again.entries[0].seq = n as u64 + 1;
    again.entries[0].input_json = demo.inputs[n - 1].clone();
    let r = c.push(&c.a, "table-1", 1, &again);
    assert!(r.unwrap().finished);
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    assert!(page.contains(games_row), "{page}");
    let ben = page.find(">Ben</a>").expect(&page);
    assert!(ben < page.find(">Aki</a>").expect(&page));
}

#[test]
fn the_admin_commands_answer_in_the_shops_language() {
    let db = cluster().database("cli").unwrap();
    let run = |lang: &str, args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tableside-club"))
            .args(args)
            .env("TABLESIDE_CLUB_DATABASE", &db)
            .env("TABLESIDE_LANG", lang)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run("ja", &["init", "--timezone", "Asia/Tokyo"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("適用しました: 0001_club"), "{out}");
    let (code, out, _) = run("ja", &["kiosk", "add", "table-1"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("キオスク table-1 を登録しました") && out.contains("tsk_"),
        "{out}"
    );
    // A mistake is told in the reader's language, and the exit status says it is theirs.
    let (code, _, err) = run("ja", &["kiosk", "add", "table-1"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("キオスク `table-1` はもう登録されています"),
        "{err}"
    );
    let (code, _, err) = run("en", &["kiosk", "add", "table-1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("kiosk `table-1` exists already"), "{err}");
    let (_, _, err) = run(
        "ja",
        &[
            "--lang",
            "en",
            "season",
            "add",
            "s",
            "2026-4-1",
            "2026-05-01",
        ],
    );
    assert!(err.contains("is not a date like 2026-04-01"), "{err}");
    let (_, _, err) = run("ja", &["event", "show", "9"]);
    assert!(err.contains("大会 9 はありません"), "{err}");
    let (_, out, _) = run("ja", &["kiosk", "list"]);
    assert!(out.contains("table-1\t0 試合\t最終接続 なし"), "{out}");
    // The database's own failures are introduced in the reader's language too.
    let (code, _, err) = run(
        "ja",
        &[
            "--database",
            "postgresql://club@127.0.0.1:1/none",
            "kiosk",
            "list",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(err.contains("データベース"), "{err}");
}

#[test]
fn tampered_pushes_are_refused_logged_and_change_nothing() {
    let c = club("tampered");
    let demo = DemoLog::jaken().unwrap();
    c.upload(&c.a, demo.catalogue);
    c.push(&c.a, "table-1", 1, &demo.push(&["Aki", "Ben"], 0..20))
        .unwrap();
    let before = c.snapshot();

    let code = |r: Result<PushResponse, Refusal>| r.unwrap_err().code;
    // An entry the rules reject: 鬼火王 (cost 6) revealed in battle 1 without an override
    // (the demo reveals 灯り小僧, JD01, there).
    let mut illegal = demo.push(&["Aki", "Ben"], 0..5);
    assert!(
        illegal.entries[4].input_json.contains("JD01"),
        "{}",
        illegal.entries[4].input_json
    );
    illegal.entries[4].input_json = illegal.entries[4].input_json.replace("JD01", "JD08");
    let r = c.push(&c.a, "table-1", 2, &illegal).unwrap_err();
    assert_eq!((r.code, r.seq), (RefusalCode::Rejected, Some(4)), "{r:?}");
    assert!(r.reason_en.contains("jaken.summon-cost"), "{r:?}");
    // A changed entry of the stored log.
    let mut changed = demo.push(&["Aki", "Ben"], 10..25);
    changed.entries[0].input_json = demo.inputs[11].clone();
    assert_eq!(
        code(c.push(&c.a, "table-1", 1, &changed)),
        RefusalCode::Rewrite
    );
    // A changed header.
    assert_eq!(
        code(c.push(&c.a, "table-1", 1, &demo.push(&["Aki", "Cho"], 20..25))),
        RefusalCode::Rewrite
    );
    // A push naming another catalogue version than the one its header says the match was
    // played with, and a catalogue under the built-in demo set's id that is not its text (it
    // could make any move "legal"): neither can be verified.
    let fake = demo.catalogue.replacen('\n', "\n# edited\n", 1);
    let mut other = demo.push(&["Aki", "Ben"], 0..5);
    other.catalogue_sha256 = catalogue_sha256(&fake);
    let r = c.push(&c.a, "table-1", 4, &other).unwrap_err();
    assert_eq!(r.code, RefusalCode::Unverifiable, "{r:?}");
    assert!(r.reason_ja.contains("検証できません"), "{r:?}");
    let (status, body) = c.send(
        "PUT",
        &catalogue_path(&catalogue_sha256(&fake)),
        Some(&c.a),
        fake.as_bytes(),
    );
    assert_eq!(status, 422, "{body}");
    let r: Refusal = serde_json::from_str(&body).unwrap();
    assert_eq!(r.code, RefusalCode::Unverifiable, "{r:?}");
    assert!(
        r.reason_en.contains("built-in demo set jaken-demo"),
        "{r:?}"
    );
    // A gap.
    let r = c
        .push(&c.a, "table-1", 1, &demo.push(&["Aki", "Ben"], 22..25))
        .unwrap_err();
    assert_eq!((r.code, r.stored), (RefusalCode::Gap, Some(20)));
    // A foreign kiosk's match: table-1's token on table-2's path.
    assert_eq!(
        code(c.push(&c.a, "table-2", 1, &demo.push(&["Aki", "Ben"], 20..25))),
        RefusalCode::ForeignKiosk
    );
    // A wrong token, and none.
    assert_eq!(
        code(c.push(
            "tsk_nope",
            "table-1",
            1,
            &demo.push(&["Aki", "Ben"], 20..25)
        )),
        RefusalCode::Unauthorized
    );
    let (status, _) = c.send("PUT", &push_path("table-1", 1), None, b"{}");
    assert_eq!(status, 401);
    // An oversized body, malformed JSON, an unknown field, a bad catalogue upload.
    let big = vec![b' '; club_protocol::MAX_BODY_BYTES + 1];
    let (status, body) = c.send("PUT", &push_path("table-1", 1), Some(&c.a), &big);
    assert_eq!(status, 413, "{body}");
    for bad in [
        &b"{"[..],
        b"[]",
        b"\xff\xfe",
        br#"{"header_json":"{}","catalogue_sha256":"x","created_ms":0,"entries":[],"extra":1}"#,
    ] {
        let (status, body) = c.send("PUT", &push_path("table-1", 1), Some(&c.a), bad);
        assert_eq!(status, 400, "{body}");
        assert!(serde_json::from_str::<Refusal>(&body).is_ok(), "{body}");
    }
    let (status, _) = c.send(
        "PUT",
        &catalogue_path(&"0".repeat(64)),
        Some(&c.a),
        b"format = 1",
    );
    assert_eq!(status, 400);
    // Many mutations of a valid push: every answer is a refusal or a success, never a crash.
    let valid = serde_json::to_string(&demo.push(&["Aki", "Ben"], 20..30)).unwrap();
    for i in 0..60usize {
        let mut bytes = valid.clone().into_bytes();
        let at = (i * 7919) % bytes.len();
        bytes[at] = b"{}[]\",:0a\\"[i % 10];
        let (status, _) = c.send("PUT", &push_path("table-1", 3), Some(&c.a), &bytes);
        assert!(
            matches!(status, 200 | 400 | 409 | 422),
            "mutation {i}: {status}"
        );
    }
    // None of it changed match 1, and the illegal match 2 was not stored.
    let after = c.snapshot();
    let match_1 = |s: &str| {
        s.lines()
            .map(|l| {
                l.split(';')
                    .filter(|r| r.starts_with("1|"))
                    .collect::<Vec<_>>()
                    .join(";")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(match_1(&after)[..3], match_1(&before)[..3]);
    let stored_2: i64 = sql(&c.db, |c| async move {
        c.query_one("SELECT count(*) FROM matches WHERE kiosk_match = 2", &[])
            .await
            .unwrap()
            .get(0)
    });
    assert_eq!(stored_2, 0);
    let logged: i64 = sql(&c.db, |c| async move {
        c.query_one("SELECT count(*) FROM refusals", &[])
            .await
            .unwrap()
            .get(0)
    });
    assert!(logged >= 10, "{logged}");
    let (status, _) = c.page("/healthz");
    assert_eq!(status, 200);
}

#[test]
fn row_level_checks_keep_a_push_to_its_own_kiosk_and_entries_never_change() {
    let c = club("rls");
    let demo = DemoLog::jaken().unwrap();
    c.upload(&c.a, demo.catalogue);
    c.push(&c.a, "table-1", 1, &demo.push(&["Aki", "Ben"], 0..10))
        .unwrap();
    c.push(&c.b, "table-2", 1, &demo.push(&["Aki", "Ben"], 0..10))
        .unwrap();
    let (seen, updated, inserted, changed) = sql(&c.db, |c| async move {
        let a: i64 = c
            .query_one("SELECT id FROM kiosks WHERE name = 'table-1'", &[])
            .await
            .unwrap()
            .get(0);
        let b: i64 = c
            .query_one("SELECT id FROM kiosks WHERE name = 'table-2'", &[])
            .await
            .unwrap()
            .get(0);
        c.batch_execute("BEGIN").await.unwrap();
        c.execute(
            "SELECT set_config('club.kiosk_id', $1, true)",
            &[&a.to_string()],
        )
        .await
        .unwrap();
        let seen: i64 = c
            .query_one("SELECT count(*) FROM matches", &[])
            .await
            .unwrap()
            .get(0);
        let updated = c
            .execute(
                "UPDATE matches SET entry_count = 0 WHERE kiosk_id = $1",
                &[&b],
            )
            .await
            .unwrap();
        let b_match: Option<i64> = c
            .query_opt("SELECT id FROM matches WHERE kiosk_id = $1", &[&b])
            .await
            .unwrap()
            .map(|r| r.get(0));
        let inserted = c
            .execute("INSERT INTO entries (match_id, seq, kiosk_id, at_ms, input_json) SELECT id, 99, kiosk_id, 0, '{}' FROM matches WHERE kiosk_id = $1", &[&b])
            .await;
        let forged = c
            .execute("INSERT INTO entries (match_id, seq, kiosk_id, at_ms, input_json) SELECT id, 99, $1, 0, '{}' FROM matches WHERE kiosk_id = $2", &[&b, &a])
            .await;
        c.batch_execute("ROLLBACK").await.unwrap();
        let changed = c
            .execute("UPDATE entries SET input_json = '{}' WHERE seq = 0", &[])
            .await;
        (
            seen,
            updated,
            (b_match, inserted.unwrap_or(0), forged.is_err()),
            changed.is_err(),
        )
    });
    // In table-1's push transaction, table-2's rows do not exist and cannot be written:
    assert_eq!(seen, 1);
    assert_eq!(updated, 0);
    assert_eq!(inserted, (None, 0, true));
    // and no one may change a stored entry.
    assert!(changed);
}

#[test]
fn a_club_night_pairs_assigns_tables_and_takes_results_from_finished_matches() {
    let c = club("night");
    let demo = DemoLog::jaken().unwrap();
    c.upload(&c.a, demo.catalogue);
    let pool = club::db::pool(&c.db, 2).unwrap();
    let players: Vec<String> = ["Aki", "Ben", "Cho", "Dan", "Eri"]
        .map(String::from)
        .to_vec();
    let tables = ["table-1", "table-2"].map(String::from).to_vec();
    let event = block_on(club::admin::create_event(
        &pool, "Friday", "jaken", 3, &players, &tables,
    ))
    .unwrap();
    assert_eq!(
        block_on(club::admin::pair_next_round(&pool, event)).unwrap(),
        1
    );
    let view = block_on(async { club::admin::event(&pool.get().await.unwrap(), event).await })
        .unwrap()
        .unwrap();
    let round1: Vec<_> = view
        .pairings
        .iter()
        .filter(|p| p.round == 1)
        .cloned()
        .collect();
    assert_eq!(round1.len(), 3, "two tables and a bye: {round1:?}");
    assert_eq!(round1.iter().filter(|p| p.b.is_none()).count(), 1);
    // The kiosks are offered their tables' pairings.
    let (_, body) = c.send("GET", "/api/v1/pairings", Some(&c.a), b"");
    let offered: Pairings = serde_json::from_str(&body).unwrap();
    assert_eq!(offered.pairings.len(), 1);
    let p = &offered.pairings[0];
    assert_eq!((p.round, p.table, p.game.as_str()), (1, 1, "jaken"));
    // The next round cannot be paired before the results are in.
    assert!(block_on(club::admin::pair_next_round(&pool, event)).is_err());
    // Table 1's match is played at its kiosk; the demo's seat 1 wins.
    let names: Vec<&str> = p.players.iter().map(String::as_str).collect();
    c.push(&c.a, "table-1", 1, &demo.push(&names, 0..demo.inputs.len()))
        .unwrap();
    let (_, body) = c.send("GET", "/api/v1/pairings", Some(&c.a), b"");
    assert!(
        serde_json::from_str::<Pairings>(&body)
            .unwrap()
            .pairings
            .is_empty(),
        "the finished pairing is no longer offered"
    );
    // Table 2 is reported by hand.
    block_on(club::admin::report_result(&pool, event, 1, 2, "a")).unwrap();
    let view = block_on(async { club::admin::event(&pool.get().await.unwrap(), event).await })
        .unwrap()
        .unwrap();
    let t1 = view
        .pairings
        .iter()
        .find(|x| x.round == 1 && x.table == 1)
        .unwrap();
    assert_eq!(t1.result, Some(club::swiss::Result2::B), "{t1:?}");
    assert!(t1.match_id.is_some());
    let leader_points: Vec<u32> = view.standings.iter().map(|s| s.points).collect();
    assert_eq!(leader_points, [3, 3, 3, 0, 0]);
    // Round 2 pairs without rematches.
    assert_eq!(
        block_on(club::admin::pair_next_round(&pool, event)).unwrap(),
        2
    );
    let view = block_on(async { club::admin::event(&pool.get().await.unwrap(), event).await })
        .unwrap()
        .unwrap();
    for p2 in view.pairings.iter().filter(|x| x.round == 2) {
        let Some(b) = &p2.b else { continue };
        assert!(
            !round1
                .iter()
                .any(|p1| p1.b.as_ref().is_some_and(
                    |b1| (p1.a.0 == p2.a.0 && b1.0 == b.0) || (p1.a.0 == b.0 && b1.0 == p2.a.0)
                )),
            "rematch {p2:?}"
        );
    }
    let (status, page) = c.page(&format!("/events/{event}?lang=ja"));
    assert_eq!(status, 200);
    assert!(page.contains("OMW%") && page.contains("不戦勝"), "{page}");
}

#[test]
fn the_pages_escape_every_text_and_replay_step_by_step() {
    let c = club("pages");
    let demo = DemoLog::jaken().unwrap();
    c.upload(&c.a, demo.catalogue);
    let evil = "<script>alert(1)</script>";
    c.push(
        &c.a,
        "table-1",
        1,
        &demo.push(&[evil, "Ben & \"Co\""], 0..demo.inputs.len()),
    )
    .unwrap();
    c.push(
        &c.a,
        "table-1",
        2,
        &demo.push(&["Aki", "Ben & \"Co\""], 0..30),
    )
    .unwrap();
    for path in [
        "/?lang=en",
        "/standings?game=jaken",
        "/players/1",
        "/matches/1?step=5",
        "/events",
    ] {
        let (status, page) = c.page(path);
        assert_eq!(status, 200, "{path}: {page}");
        assert!(!page.contains("<script>"), "{path} lets a script in");
    }
    let (_, page) = c.page("/standings?game=jaken&lang=en");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{page}"
    );
    assert!(page.contains("Ben &amp; &quot;Co&quot;"));
    // Tonight's tables: table-1's latest match is live, with its numbers.
    let (_, page) = c.page("/?lang=en");
    assert!(
        page.contains("table-1") && page.contains("http-equiv=\"refresh\""),
        "{page}"
    );
    // The replay steps.
    let (_, page) = c.page("/matches/1?step=3&lang=en");
    assert!(page.contains("Step 3 / 83"), "{page}");
    assert!(
        page.contains("rel=\"next\" href=\"/matches/1?lang=en&amp;step=4\""),
        "{page}"
    );
    // Unknown query fields are refused by name; unknown pages are 404.
    let (status, page) = c.page("/standings?gmae=jaken");
    assert_eq!(status, 400);
    assert!(page.contains("gmae"), "{page}");
    assert_eq!(c.page("/nowhere").0, 404);
    assert_eq!(c.page("/matches/999").0, 404);
}

#[test]
fn no_statement_is_built_from_strings() {
    // Every statement of the server is a literal with $n parameters: no `format!` near SQL.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        // The test helpers create databases by name (CREATE DATABASE takes no parameters).
        if path.file_name().is_some_and(|n| n == "testing.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, _) in text.match_indices("format!(") {
            // The macro's arguments: up to its closing parenthesis.
            let mut depth = 0;
            let window: String = text[at + "format!".len()..]
                .chars()
                .take_while(|c| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth > 0
                })
                .collect::<String>()
                .to_uppercase();
            for keyword in [
                "SELECT ", "INSERT ", "UPDATE ", "DELETE ", " WHERE ", "CREATE ",
            ] {
                assert!(
                    !window.contains(keyword),
                    "{}: SQL built with format!: {window}",
                    path.display()
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} files");
}
