//! The club panel on the start screen, driven headless with `egui_kittest` against a real club
//! server on a throwaway PostgreSQL: tonight's pairing offered at this table, one tap filling in
//! the game and the names, the match pushed as it is played, and the outage shown.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use club::testing::{PgCluster, TestServer, add_kiosk, block_on, fast_tempdir, init};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::time::Duration;
use tableside::config::Club;
use tableside::sync::{SyncOptions, SyncService, install, installed};
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};

mod common;
use common::*;

fn settle(h: &mut H, until: impl Fn(&H) -> bool) {
    for _ in 0..300 {
        h.run();
        if until(h) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A tap while the sync thread is live: its progress repaints the window whenever it pushes
/// (here a refused entry and its retry), so the frames are run a fixed number of times instead
/// of "until nothing repaints", which depends on the thread's timing.
fn tap_live(h: &mut H, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run_steps(4);
    h.get_by_label(label).click();
    h.run_steps(4);
}

#[test]
fn tonights_pairing_is_offered_taken_and_the_match_pushed() {
    let pg = PgCluster::start().expect("a PostgreSQL cluster (apt-get install postgresql)");
    let db = pg.database("club_ui").unwrap();
    init(&db, "Asia/Tokyo").unwrap();
    let token = add_kiosk(&db, "table-1").unwrap();
    let pool = club::db::pool(&db, 2).unwrap();
    let players = ["Aki", "Ben"].map(String::from).to_vec();
    let event = block_on(club::admin::create_event(
        &pool,
        "Friday",
        "yomi",
        1,
        &players,
        &["table-1".into()],
    ))
    .unwrap();
    block_on(club::admin::pair_next_round(&pool, event)).unwrap();
    let server = TestServer::start(&db).unwrap();

    let dir = fast_tempdir().unwrap();
    let path = dir.path().join("tableside.sqlite3");
    let club = Club {
        url: server.url.clone(),
        token,
    };
    let options = SyncOptions {
        poll: Duration::from_millis(50),
        min_backoff: Duration::from_millis(50),
        max_backoff: Duration::from_millis(200),
        timeout: Duration::from_secs(3),
        pairings_every: Duration::from_millis(100),
    };
    install(SyncService::start(&club, path.clone(), options).unwrap());
    let sync = installed().unwrap();
    sync.wait_for(Duration::from_secs(30), |s| !s.pairings.is_empty())
        .unwrap();

    let app = TablesideApp::new(UiOptions {
        db_path: path.clone(),
        kiosk: false,
        tower: None,
    });
    let mut h: H = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app);
    h.run();
    assert!(sees_part(&h, "every match is at the club (table-1)"));
    let offer = sync.state().pairings[0].clone();
    let label = format!(
        "Friday · round 1 · table 1: {} (Yomi ヨミ)",
        offer.players.join(" vs ")
    );
    assert!(sees(&h, &label), "the pairing is offered");
    // One tap fills in the game and the names; Start plays the pairing.
    tap_live(&mut h, &label);
    tap_live(&mut h, "Start");
    let session = h.state().session().expect("the match started");
    let names: Vec<String> = session
        .game()
        .header()
        .players
        .iter()
        .map(|p| p.name.clone())
        .collect();
    assert_eq!(names, offer.players);
    assert_eq!(session.game().header().game.as_str(), "yomi");
    // The new match reaches the club by itself.
    sync.wait_for(Duration::from_secs(30), |s| s.synced == 1 && s.waiting == 0)
        .unwrap();

    // Back on the start screen in Japanese, the outage is shown with its time.
    server.kill();
    sync.wait_for(Duration::from_secs(30), |s| s.unreachable_since.is_some())
        .unwrap();
    let mut h: H = Harness::builder()
        .with_size([800.0, 480.0])
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), {
            let mut app = TablesideApp::new(UiOptions {
                db_path: path,
                kiosk: true,
                tower: None,
            });
            app.set_lang(tableside::ui::i18n::Lang::Ja);
            app
        });
    settle(&mut h, |h| sees_part(h, "からクラブに接続できません"));
    assert!(sees_part(&h, "からクラブに接続できません"));
}
