//! The camera beside a match, through the window: a camera that is not there leaves the match
//! running with a visible warning and manual entry; when frames arrive, a card turned over on
//! the mat becomes the move it stands for without a tap.
//!
//! The "camera" is a directory of rendered frames (`camera = "frames:<dir>"`), so the test
//! knows what lies on the table; nothing here needs a real camera or a display.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::GameId;
use cards::tags::Tag;
use egui_kittest::Harness;
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{Camera, card_in_zone, mat_scene, render};
use std::path::Path;
use std::time::{Duration, Instant};
use tableside::session::load_match;
use tableside::store::Store;
use tableside::ui::{FontChoice, TablesideApp, UiOptions, prepare_context};
use tableside::vision::CameraChoice;

mod common;
use common::*;

fn open(db: &Path, frames: &Path) -> H {
    let app = TablesideApp::new(UiOptions {
        db_path: db.to_path_buf(),
        kiosk: false,
        tower: None,
    })
    .with_camera(CameraChoice::Frames {
        dir: frames.to_path_buf(),
        fps: 10,
    });
    Harness::builder()
        .with_size([1400.0, 1000.0])
        .with_context_setup(|ctx| {
            prepare_context(ctx, FontChoice::EmbeddedOnly);
        })
        .build_ui_state(|ui, app: &mut TablesideApp| app.show(ui), app)
}

/// Runs frames until `done` holds (the camera thread works in real time), or fails after `limit`.
/// While frames arrive the camera thread asks for a redraw with each one, so the window need not
/// settle between two polls (on a loaded machine it never does): each poll runs a bounded number
/// of frames and then looks.
#[track_caller]
fn wait_for(h: &mut H, limit: Duration, what: &str, done: impl Fn(&H) -> bool) {
    let start = Instant::now();
    while !done(h) {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
        let _ = h.run_ok();
    }
}

/// The Jaken mat with Aki's 灯り小僧 (JD01, copy 1) turned over in his battle zone, as a
/// 1280 × 720 camera sees it (60 mm tags: the size the docs give for 1280 × 720), a few frames.
fn write_frames(dir: &Path) {
    let layout = MatLayout::builtin(GameId::Jaken).unwrap();
    let mut scene = mat_scene(&layout).unwrap();
    let zone = layout.zone("battle", Some(0)).unwrap();
    let tag = Tag {
        game: GameId::Jaken,
        card: "JD01".into(),
        copy: 1,
    };
    scene
        .cards
        .push(card_in_zone(zone, &tag.encode().unwrap(), 60.0, 0, 2.0, (0.0, 0.0)).unwrap());
    let camera = Camera::overhead(1280, 720, layout.size_mm, 0.03, 0.02, 0.5);
    let tmp = dir.with_extension("partial");
    std::fs::create_dir_all(&tmp).unwrap();
    for i in 0..8 {
        let frame = render(&scene, &camera, i);
        frame.image.save(tmp.join(format!("{i:03}.png"))).unwrap();
    }
    // The directory appears whole, as a camera that is plugged in.
    std::fs::rename(&tmp, dir).unwrap();
}

#[test]
fn a_missing_camera_warns_and_a_card_turned_over_on_the_mat_is_taken_as_the_reveal() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("tableside.sqlite3");
    let frames = tmp.path().join("camera");
    let mut h = open(&db, &frames);

    type_into(&mut h, "Player 1 name", "Aki");
    type_into(&mut h, "Player 2 name", "Ben");
    click(&mut h, "Player 1 deck: lantern");
    click(&mut h, "Player 2 deck: gale");
    click(&mut h, "Start");

    // Given no camera: the table says so, and the match goes on by hand.
    wait_for(&mut h, Duration::from_secs(10), "the camera warning", |h| {
        sees_part(h, "camera lost: enter moves by hand")
    });
    // In Japanese, the warning and its reason are Japanese.
    click(&mut h, "日本語");
    assert!(sees_part(&h, "カメラが切断されました"));
    assert!(
        sees_part(&h, "画像フォルダ") || sees_part(&h, "画像ファイル"),
        "the reason in Japanese"
    );
    assert!(!sees_part(&h, "cannot read the image directory"));
    click(&mut h, "English");
    click(&mut h, "Aki wins the janken and becomes the parent");
    click(&mut h, "Aki declares no BG");
    click(&mut h, "Aki places a monster face down");
    click(&mut h, "Ben places a monster face down");
    assert!(sees_part(&h, "Aki: reveal your monster"));

    // When the camera comes back and sees Aki's monster turned over in his battle zone …
    write_frames(&frames);
    // … then the reveal is entered without a tap.
    wait_for(
        &mut h,
        Duration::from_secs(60),
        "the reveal from the camera",
        |h| !sees_part(h, "Aki: reveal your monster"),
    );
    let store = Store::open_read_only(&db).unwrap();
    let id = store.unfinished().unwrap()[0].id;
    let m = load_match(&store, id).unwrap();
    let log: Vec<String> = m.log().into_iter().map(|l| l.text).collect();
    assert_eq!(log.len(), 5, "{log:?}");
    assert!(
        log[4].contains("Aki") && log[4].contains("灯り小僧"),
        "{log:?}"
    );
    assert!(
        !sees_part(&h, "camera lost"),
        "the warning is gone once frames arrive"
    );
}
