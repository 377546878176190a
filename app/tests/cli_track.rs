//! `tableside track` on a directory of rendered frames: the events as JSON lines.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use cards::core::GameId;
use hardware::vision::mat::MatLayout;
use hardware::vision::render::{
    Camera, Marker, Symbol, card_in_zone, mat_scene, place_by_hand, render, tag_to_card_mm,
};
use std::path::Path;
use std::process::{Command, Output};

fn tableside(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tableside"))
        .current_dir(dir)
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .env_remove("TABLESIDE_DATA_DIR")
        .output()
        .expect("run tableside")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A temporary directory with `frames/1.png`, a blank frame; returns it and `frames`.
fn one_frame_dir() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    image::GrayImage::new(64, 48)
        .save(frames.join("1.png"))
        .unwrap();
    (dir, frames)
}

#[test]
fn track_prints_the_cards_put_on_the_mat_as_json_lines_with_their_owners() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    let layout = MatLayout::builtin(GameId::Jaken).unwrap();
    let tag_mm = 48.0;
    let mut scene = mat_scene(&layout).unwrap();
    // A flyer with a foreign code lies on the mat: ignored.
    scene.markers.push(Marker {
        symbol: Symbol::any("https://example.com/flyer").unwrap(),
        center_mm: (350.0, 200.0),
        size_mm: 40.0,
        angle_deg: 10.0,
    });
    // Aki's registered JD01 copy 1, turned a quarter, into seat 0's battle zone; an
    // unregistered copy into seat 1's trash.
    let battle = layout.zone("battle", Some(0)).unwrap();
    let trash = layout.zone("trash", Some(1)).unwrap();
    let a = card_in_zone(battle, "TS1:J:JD01:1:I", tag_mm, 1, 2.0, (0.0, 0.0)).unwrap();
    let b = card_in_zone(trash, "TS1:J:JD30:3:M", tag_mm, 2, -1.0, (2.0, 0.0)).unwrap();
    assert!(cards::tags::Tag::parse("TS1:J:JD01:1:I").is_ok());
    assert!(cards::tags::Tag::parse("TS1:J:JD30:3:M").is_ok());
    let mut scenes = vec![scene.clone(); 3];
    scenes.extend(place_by_hand(&scene, &a, 2, 2));
    let with_a = scenes.last().unwrap().clone();
    scenes.extend(place_by_hand(&with_a, &b, 2, 2));
    let last = scenes.last().unwrap().clone();
    scenes.extend(vec![last; 8]);
    let camera = Camera::overhead(960, 540, layout.size_mm, 0.02, 0.05, 1.0);
    for (i, s) in scenes.iter().enumerate() {
        let frame = render(s, &camera, i as u64);
        frame.image.save(frames.join(format!("f{i}.png"))).unwrap();
    }
    let deck = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples/decks/jaken-aki-lanterns.toml");
    let offset = tag_to_card_mm(tag_mm).to_string();
    let out = tableside(
        dir.path(),
        &[
            "track",
            frames.to_str().unwrap(),
            "--fps",
            "10",
            "--game",
            "jaken",
            "--card-offset-mm",
            &offset,
            "--deck",
            deck.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let said = text(&out.stdout);
    assert_eq!(lines.len(), 3, "{said}");
    assert_eq!(lines[0]["event"], "mat-found", "{said}");
    assert_eq!(lines[0]["time"], 0.0);
    let seen = &lines[1];
    assert_eq!(seen["event"], "seen", "{said}");
    assert_eq!(seen["payload"], "TS1:J:JD01:1:I");
    assert_eq!(seen["zone"], "battle");
    assert_eq!(seen["seat"], 0);
    assert_eq!(seen["rotation"], 1);
    assert_eq!(seen["owner"], "Aki");
    let t = seen["time"].as_f64().unwrap();
    assert!((0.5..=1.5).contains(&t), "{said}");
    let other = &lines[2];
    assert_eq!(
        (
            &other["event"],
            &other["payload"],
            &other["zone"],
            &other["seat"],
            &other["rotation"]
        ),
        (
            &"seen".into(),
            &"TS1:J:JD30:3:M".into(),
            &"trash".into(),
            &1.into(),
            &2.into()
        ),
        "{said}"
    );
    assert!(other["owner"].is_null());
}

#[test]
fn a_bad_mat_layout_is_refused_with_its_file_line_and_field() {
    let (dir, _frames) = one_frame_dir();
    let text_of = hardware::vision::mat::BUILTIN[0]
        .2
        .replacen("seat = 0", "seat = 7", 1);
    let mat = dir.path().join("mat.toml");
    std::fs::write(&mat, &text_of).unwrap();
    let line = text_of.lines().position(|l| l == "seat = 7").unwrap() + 1;
    let out = tableside(
        dir.path(),
        &["track", "frames", "--fps", "10", "--mat", "mat.toml"],
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "mat.toml:{line}:1: field `seat`: seat 7 is out of range"
        )),
        "{err}"
    );
    // Neither a layout nor a game: clap says what is missing.
    let out = tableside(dir.path(), &["track", "frames", "--fps", "10"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--mat"), "{}", text(&out.stderr));
}

#[test]
fn frame_rates_and_offsets_that_mean_nothing_are_refused_cleanly_in_both_languages() {
    let (dir, _frames) = one_frame_dir();
    let run = |extra: &[&str]| {
        let mut args = vec!["track", "frames", "--game", "jaken"];
        args.extend_from_slice(extra);
        tableside(dir.path(), &args)
    };
    for fps in [
        "1e-20", "0", "-5", "-0.0", "NaN", "inf", "-inf", "1e300", "0.05", "1001",
    ] {
        let out = run(&["--fps", fps]);
        let err = text(&out.stderr);
        // A clean refusal (exit 1), not a panic (101).
        assert_eq!(out.status.code(), Some(1), "--fps {fps}: {err}");
        assert!(
            err.contains("--fps") && err.contains("0.1 to 1000"),
            "{fps}: {err}"
        );
        assert!(err.contains("フレームレート"), "{fps}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    for offset in ["NaN", "inf", "1e9", "-200"] {
        let out = run(&["--fps", "10", "--card-offset-mm", offset]);
        let err = text(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "--card-offset-mm {offset}: {err}"
        );
        assert!(
            err.contains("-88 to 88 mm") && err.contains("タグ中心"),
            "{err}"
        );
    }
    // Not a number at all: clap says so (exit 2), still no panic.
    let out = run(&["--fps", "ten"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // The extremes of the range work.
    for fps in ["0.1", "1000"] {
        let out = run(&["--fps", fps]);
        assert!(out.status.success(), "--fps {fps}: {}", text(&out.stderr));
    }
}

#[test]
fn a_mat_drawn_into_the_marker_margins_loads_with_a_warning_naming_zones_and_millimetres() {
    let (dir, _frames) = one_frame_dir();
    for (game, _, example) in hardware::vision::mat::EXAMPLES {
        let file = format!("{}.toml", game.as_str());
        std::fs::write(dir.path().join(&file), example).unwrap();
        let out = tableside(
            dir.path(),
            &["track", "frames", "--fps", "10", "--mat", &file],
        );
        let err = text(&out.stderr);
        assert!(out.status.success(), "{game}: {err}");
        let english: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
        let japanese: Vec<&str> = err.lines().filter(|l| l.contains("警告:")).collect();
        assert_eq!((english.len(), japanese.len()), (4, 4), "{game}: {err}");
        for line in english {
            assert!(
                line.contains(&format!("{file}:"))
                    && line.contains("zone `")
                    && line.contains(" mm into the white margin"),
                "{line}"
            );
        }
        for line in japanese {
            assert!(
                line.contains("ゾーン `") && line.contains(" mm 入り込んで"),
                "{line}"
            );
        }
    }
}

#[test]
fn the_other_options_and_unreadable_frames_get_clear_messages_in_both_languages() {
    let (dir, frames) = one_frame_dir();
    let refused = |args: &[&str], english: &str, japanese: &str| {
        let out = tableside(dir.path(), args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains(english) && err.contains(japanese),
            "{args:?}: {err}"
        );
    };
    refused(
        &["track", "frames", "--fps", "10", "--game", "chess"],
        "unknown game `chess`",
        "というゲームはありません",
    );
    refused(
        &["track", "nowhere", "--fps", "10", "--game", "jaken"],
        "cannot read the image directory",
        "画像フォルダ",
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("notes.txt"), "not a frame").unwrap();
    refused(
        &["track", "empty", "--fps", "10", "--game", "jaken"],
        "no image files",
        "画像ファイル",
    );
    // A recording cut off mid-write: the damaged frame is skipped with a warning naming it,
    // and the run goes on to the end.
    std::fs::write(frames.join("2.jpg"), [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J']).unwrap();
    image::GrayImage::new(64, 48)
        .save(frames.join("3.png"))
        .unwrap();
    let out = tableside(
        dir.path(),
        &["track", "frames", "--fps", "10", "--game", "jaken"],
    );
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("2.jpg")).collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(warnings[0].contains("warning:") && warnings[0].contains("frame skipped"));
    assert!(warnings[1].contains("警告:") && warnings[1].contains("飛ばしました"));
}
